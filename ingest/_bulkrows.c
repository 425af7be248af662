/*
 * Ingest's bulk path in C (ingest/bulk.py): a plain, clean Slovenian record straight to the store's rows.
 *
 * ``add_clean`` replays the decoded record with the rules kernel's ``run_lane`` (tarock/accel/_fastplay.c,
 * reached through its ``KERNEL_API`` capsule: tarock/accel/kernel.h), scores it with the compiled scorer
 * (tarock.accel.scorer) and the radelci its session holds, compares the score sheet, and appends the
 * ``deals`` row and the ``results`` values to the partition's columns (ingest.rows.CleanRows).  The rules
 * stay the kernel's; the store's columns, score sheets and radelci ledgers are this module's.
 *
 * Nothing is passed by position that could be kept in order by hand: ``add_clean``'s context is laid out by
 * the names of ``CONTEXT_FIELDS`` (ingest.bulk builds it by name, once per contract and options), the
 * ``deals`` row by ``DEAL_ROW`` (which must be ingest.rows.CleanRows.ROW: ingest.bulk checks), and the plain
 * record's fields are found by name at ``init`` (tarock.formats.decode.Plain's ``_fields``).
 * docs/performance.md describes the whole path.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "kernel.h"
#include "sheet.h"

static const KernelApi *kernel = NULL;

/* -- what add_clean reads, by name -------------------------------------------------------------------------- */

/* The context of a contract, number of players and options (ingest.bulk.BulkPath._spec): exported in this
 * order as ``CONTEXT_FIELDS``.  The ``results`` columns go by their names in the store (ingest/schema.py). */
#define CONTEXT(X)                                                                                               \
    X(C_PER_HAND, "per_hand") X(C_HAS_DECLARER, "has_declarer") X(C_DECLARER_LEADS, "declarer_leads")          \
    X(C_CALLS_KING, "calls_king") X(C_LANE_PLAN, "lane_plan") X(C_SCORER, "scorer")                              \
    X(C_SCORER_PLAN, "scorer_plan") X(C_ZEROS, "zeros") X(C_NONES, "nones") X(C_ROLES, "roles")                  \
    X(C_TRICK_BYTES, "trick_bytes") X(C_COMPONENT_BYTES, "component_bytes") X(C_DEALS, "deals")                  \
    X(C_ROLE, "role") X(C_SCORE, "score") X(C_RADELCI_BEFORE, "radelci_before")                                  \
    X(C_RADELCI_AFTER, "radelci_after") X(C_BREAKDOWN_JSON, "breakdown_json") X(C_RECORDED_SCORE, "recorded_score") \
    X(C_SCORE_DIFF, "score_diff") X(C_ROSTER_OF, "roster_of") X(C_ROSTERS, "rosters") X(C_LEDGERS, "ledgers")     \
    X(C_ADDED, "added") X(C_PARSE_DATE, "parse_date") X(C_KLOP_CARD_POINTS, "klop_card_points_json")             \
    X(C_CARD_POINTS, "card_points_json") X(C_HAND_BYTES, "hand_bytes") X(C_CARD_INDEX, "card_index")
#define ENUM(id, name) id,
#define NAME(id, name) name,
enum { CONTEXT(ENUM) C_SIZE };
static const char *context_names[C_SIZE] = {CONTEXT(NAME)};

/* The ``deals`` row of a clean deal: exported in this order as ``DEAL_ROW``. */
#define ROW(X)                                                                                                   \
    X(R_DEAL_ID, "deal_id") X(R_CONTENT_HASH, "content_hash") X(R_SOURCE_LINE, "source_line")                   \
    X(R_SOURCE_POS, "source_pos") X(R_SESSION, "session") X(R_SEQ, "seq") X(R_DATE, "date")                     \
    X(R_CONTRACT, "contract") X(R_DECLARER, "declarer") X(R_PARTNER, "partner") X(R_CALLED_KING, "called_king") \
    X(R_WON, "won") X(R_DECLARER_POINTS, "declarer_points") X(R_OPPONENTS_POINTS, "opponents_points")           \
    X(R_CARD_POINTS_JSON, "card_points_json") X(R_N_TRICKS, "n_tricks") X(R_HAS_RECORDED, "has_recorded")       \
    X(R_OPTIONS_HASH, "options_hash") X(R_OPTIONS_JSON, "options_json") X(R_RECORD, "record")
enum { ROW(ENUM) R_SIZE };
static const char *row_names[R_SIZE] = {ROW(NAME)};

/* The fields of a plain record (tarock.formats.decode.Plain) read here: their positions come from ``init``. */
#define PLAIN(X) X(P_LINE, "line") X(P_POS, "pos") X(P_RECORD, "record") X(P_PLAYERS, "players") \
    X(P_TEXT, "text") X(P_DIGEST, "digest") X(P_DEAL_ID, "deal_id")
enum { PLAIN(ENUM) P_COUNT };
static const char *plain_names[P_COUNT] = {PLAIN(NAME)};
static Py_ssize_t plain_at[P_COUNT], plain_size = -1;

/* The decoded record's attributes read here (tarock.formats.decode's record struct). */
#define ATTRS(X)                                                                                                  \
    X(A_HANDS, "hands") X(A_TALON, "talon") X(A_TRICKS, "tricks") X(A_CALLED, "called_king") X(A_PICK, "talon_pick") \
    X(A_STASH, "stash") X(A_SESSION, "session") X(A_SEQ, "seq") X(A_DATE, "date") X(A_CONTRACT, "contract")       \
    X(A_DECLARER, "declarer") X(A_RECORDED, "recorded")
enum { ATTRS(ENUM) N_ATTRS };
static const char *attr_texts[N_ATTRS] = {ATTRS(NAME)};
static PyObject *attr_names[N_ATTRS], *name_scores, *name_radelci, *name_options, *name_bidding,
    *name_announcements;

#define PLAIN_ITEM(plain, field) PyTuple_GET_ITEM(plain, plain_at[field])

static int names_ready(void) {
    if (attr_names[0]) return 0;
    for (int i = 0; i < N_ATTRS; i++)
        if (!(attr_names[i] = PyUnicode_InternFromString(attr_texts[i]))) return -1;
    if (!(name_scores = PyUnicode_InternFromString("scores")) || !(name_radelci = PyUnicode_InternFromString("radelci"))
        || !(name_options = PyUnicode_InternFromString("options"))
        || !(name_bidding = PyUnicode_InternFromString("bidding"))
        || !(name_announcements = PyUnicode_InternFromString("announcements")))
        return -1;
    return 0;
}

#define HAND_FIXED 5             /* ingest.hands.FIXED: the fields of a HandEntry before the hand masks */
#define FULL_DECK ((1ULL << 54) - 1)

/* The card of a code by the context's ``card_index`` (tarock.cards.CODE_INDEX); -2 with an exception set. */
static int64_t card_index(PyObject *ctx, PyObject *code) {
    PyObject *card = PyDict_GetItemWithError(PyTuple_GET_ITEM(ctx, C_CARD_INDEX), code);
    if (!card) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "add_clean: a card code the deck does not have");
        return -2;
    }
    return PyLong_AsLongLong(card);
}

/* The bits of a list of card codes, or'ed; -2 with an exception set. */
static int64_t cards_bits(PyObject *ctx, PyObject *codes) {
    if (!PyList_Check(codes)) { PyErr_SetString(PyExc_TypeError, "add_clean: talon_pick is no list"); return -2; }
    uint64_t bits = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(codes); i++) {
        int64_t card = card_index(ctx, PyList_GET_ITEM(codes, i));
        if (card < 0) return -2;
        bits |= 1ULL << card;
    }
    return (int64_t)bits;
}

/* init(plain_fields): where the fields read here are in a plain record (``Plain._fields``). */
static PyObject *py_init(PyObject *self, PyObject *fields) {
    if (!PyTuple_Check(fields)) {
        PyErr_SetString(PyExc_TypeError, "init: the plain record's field names, a tuple");
        return NULL;
    }
    Py_ssize_t at[P_COUNT];
    for (int f = 0; f < P_COUNT; f++) {
        at[f] = -1;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(fields); i++) {
            PyObject *name = PyTuple_GET_ITEM(fields, i);
            if (PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, plain_names[f]) == 0) at[f] = i;
        }
        if (at[f] < 0) {
            PyErr_Format(PyExc_ValueError, "init: a plain record has no field %s", plain_names[f]);
            return NULL;
        }
    }
    if (names_ready() < 0) return NULL;
    memcpy(plain_at, at, sizeof at);
    plain_size = PyTuple_GET_SIZE(fields);
    Py_RETURN_NONE;
}

/* -- score sheets and columns ------------------------------------------------------------------------------- */

static int extend(PyObject *list, PyObject *items) {
    /* list += items */
    Py_ssize_t at = PyList_GET_SIZE(list);
    return PyList_SetSlice(list, at, at, items);
}

static int plain_ok(PyObject *plain) {
    if (plain_size < 0) {
        PyErr_SetString(PyExc_RuntimeError, "ingest._bulkrows.init was not called");
        return -1;
    }
    if (PyTuple_GET_SIZE(plain) != plain_size) {
        PyErr_SetString(PyExc_ValueError, "not a plain record of the shape init was given");
        return -1;
    }
    return 0;
}

/* -- one clean deal ------------------------------------------------------------------------------------------- */

/* add_clean(plain, context, roster, texts, extra=None) -> True when the deal's rows were added, False to decline.
 * ingest.bulk.BulkPath.add for a clean deal, in one call: the plain record (tarock.formats.decode.Plain) is
 * replayed (the kernel's run_lane, its tricks appended to the partition's buffer: per trick its cards, the
 * seats that played them and the winner's seat, a byte each), scored by the compiled scorer with the radelci
 * its session holds, and its ``deals`` row and ``results`` values appended to the partition's columns
 * (ingest.rows.CleanRows), the session's radelci updated.  ``context`` is the tuple ingest.bulk lays out by
 * ``CONTEXT_FIELDS``; ``roster`` the scorer's roster of the players; ``texts`` the deal's (options_json,
 * options_hash); ``extra`` the scorer's codes of the deal's announcements and kontras
 * (tarock.accel.scorer.extra_of).  A deal with a score sheet is added when the sheet says what was recomputed
 * (scores and, if it has them, radelci: tarock.check.audit.audit_scores finds nothing), else declined.  Nothing
 * is added when it declines or fails. */
static PyObject *add_clean(PyObject *plain, PyObject *ctx, PyObject *roster, PyObject *texts, PyObject *extra) {
    if (!PyTuple_Check(ctx) || PyTuple_GET_SIZE(ctx) != C_SIZE || PyTuple_GET_SIZE(texts) != 2) {
        PyErr_SetString(PyExc_ValueError, "add_clean: unexpected arguments");
        return NULL;
    }
    if (plain_ok(plain) < 0) return NULL;
    PyObject *record = PLAIN_ITEM(plain, P_RECORD), *players = PLAIN_ITEM(plain, P_PLAYERS);
    if (!PyTuple_Check(players)) Py_RETURN_FALSE;
    PyObject *field[N_ATTRS];
    for (int i = 0; i < N_ATTRS; i++) {
        field[i] = PyObject_GetAttr(record, attr_names[i]);
        if (!field[i]) { for (int j = 0; j < i; j++) Py_DECREF(field[j]); return NULL; }
    }
    PyObject *result = NULL, *facts = NULL, *scored = NULL, *before = NULL, *row = NULL, *new_ledger = NULL;
    PyObject *sheet = NULL, *sheet_radelci = NULL, *on_sheet = NULL;
    PyObject *tricks = PyTuple_GET_ITEM(ctx, C_TRICK_BYTES), *lines = PyTuple_GET_ITEM(ctx, C_COMPONENT_BYTES);
    Py_ssize_t tricks_at = PyByteArray_GET_SIZE(tricks), lines_at = PyByteArray_GET_SIZE(lines);
    PyObject *hand_bytes = PyTuple_GET_ITEM(ctx, C_HAND_BYTES);
    Py_ssize_t hands_at = PyByteArray_GET_SIZE(hand_bytes);
    int n = (int)PyTuple_GET_SIZE(players);
    /* the declarer */
    PyObject *declarer = field[A_DECLARER];
    int seat = lane_declarer_seat(kernel, declarer, players, PyObject_IsTrue(PyTuple_GET_ITEM(ctx, C_HAS_DECLARER)));
    if (seat == -2) goto decline;
    /* the replay */
    LaneArgs a;
    lane_args_of_record(&a, field[A_HANDS], field[A_TALON], field[A_TRICKS], players, field[A_PICK], field[A_STASH],
                        field[A_CALLED], (int)PyLong_AsLong(PyTuple_GET_ITEM(ctx, C_PER_HAND)), seat,
                        PyObject_IsTrue(PyTuple_GET_ITEM(ctx, C_DECLARER_LEADS)),
                        PyObject_IsTrue(PyTuple_GET_ITEM(ctx, C_CALLS_KING)));
    if (!(a.plan = kernel->lane_plan(PyTuple_GET_ITEM(ctx, C_LANE_PLAN)))) goto fail;
    if (PyErr_Occurred()) goto fail;
    int klop = a.plan->o.is_klop;
    LaneResult res;
    int rc = kernel->run_lane(&a, &res);
    if (rc < 0) goto fail;
    if (rc == 0) goto decline;
    facts = res.facts;
    const Tricks *tr = &res.tr;
    int width = 2 * n + 1, partner = res.partner;
    if (PyByteArray_Resize(tricks, tricks_at + (Py_ssize_t)tr->nt * width) < 0) goto fail;
    uint8_t *p = (uint8_t *)PyByteArray_AS_STRING(tricks) + tricks_at;
    for (int t = 0; t < tr->nt; t++, p += width) {
        for (int i = 0; i < n; i++) { p[i] = (uint8_t)tr->cards[t][i]; p[n + i] = (uint8_t)tr->who[t][i]; }
        p[2 * n] = (uint8_t)tr->winners[t];
    }
    /* the score, with the radelci the session holds */
    PyObject *session = field[A_SESSION], *ledgers = PyTuple_GET_ITEM(ctx, C_LEDGERS);
    PyObject *ledger = session == Py_None ? NULL : PyDict_GetItemWithError(ledgers, session);
    if (!ledger && PyErr_Occurred()) goto fail;
    if (ledger && PyDict_GET_SIZE(ledger)) {
        if (!(before = PyTuple_New(n))) goto fail;
        for (int s = 0; s < n; s++) {
            PyObject *held = PyDict_GetItemWithError(ledger, PyTuple_GET_ITEM(players, s));
            if (!held) { if (PyErr_Occurred()) goto fail; held = PyTuple_GET_ITEM(PyTuple_GET_ITEM(ctx, C_ZEROS), s); }
            Py_INCREF(held);
            PyTuple_SET_ITEM(before, s, held);
        }
    } else {
        before = PyTuple_GET_ITEM(ctx, C_ZEROS);
        Py_INCREF(before);
    }
    PyObject *deals = PyTuple_GET_ITEM(ctx, C_DEALS);
    PyObject *who_declares = seat < 0 ? Py_None : PyLong_FromLong(seat);
    PyObject *who_partners = partner < 0 ? Py_None : PyLong_FromLong(partner);
    PyObject *first_row = PyLong_FromSsize_t(PyList_GET_SIZE(deals) * n);
    if (seat < 0) Py_INCREF(Py_None);
    if (partner < 0) Py_INCREF(Py_None);
    if (!who_declares || !who_partners || !first_row) {
        Py_XDECREF(who_declares); Py_XDECREF(who_partners); Py_XDECREF(first_row);
        goto fail;
    }
    PyObject *call[9] = {PyTuple_GET_ITEM(ctx, C_SCORER_PLAN), roster, who_declares, who_partners, facts, before,
                         first_row, lines, extra};
    scored = PyObject_Vectorcall(PyTuple_GET_ITEM(ctx, C_SCORER), call, 9, NULL);
    Py_DECREF(who_declares);
    Py_DECREF(who_partners);
    Py_DECREF(first_row);
    if (!scored) goto fail;
    if (scored == Py_None) goto decline;
    if (!PyTuple_Check(scored) || PyTuple_GET_SIZE(scored) != 4) {
        PyErr_SetString(PyExc_TypeError, "add_clean: the scorer returned something else");
        goto fail;
    }
    /* tarock.accel.scorer.Result */
    PyObject *won = PyTuple_GET_ITEM(scored, 0), *scores = PyTuple_GET_ITEM(scored, 1);
    PyObject *after = PyTuple_GET_ITEM(scored, 2), *breakdown = PyTuple_GET_ITEM(scored, 3);
    /* the score sheet: a deal whose sheet says anything else has findings (tarock.check.audit): the usual path */
    PyObject *diffs = PyTuple_GET_ITEM(ctx, C_NONES);
    int has_sheet = field[A_RECORDED] != Py_None;
    if (has_sheet) {
        if (!(sheet = PyObject_GetAttr(field[A_RECORDED], name_scores))
            || !(sheet_radelci = PyObject_GetAttr(field[A_RECORDED], name_radelci)))
            goto fail;
        if (!PyDict_Check(sheet) || (sheet_radelci != Py_None && !PyDict_Check(sheet_radelci))) goto decline;
        int same = sheet_says(sheet, players, scores);
        if (same == 1 && sheet_radelci != Py_None) same = sheet_says(sheet_radelci, players, after);
        if (same < 0) goto fail;
        if (!same) goto decline;
        if (!(on_sheet = PyTuple_New(n))) goto fail;
        for (int s = 0; s < n; s++) {
            PyObject *got = PyDict_GetItem(sheet, PyTuple_GET_ITEM(players, s));
            got = got ? got : Py_None;
            Py_INCREF(got);
            PyTuple_SET_ITEM(on_sheet, s, got);
        }
        diffs = PyTuple_GET_ITEM(ctx, C_ZEROS);  /* recorded minus recomputed, a missing player counting 0 */
    } else {
        on_sheet = PyTuple_GET_ITEM(ctx, C_NONES);
        Py_INCREF(on_sheet);
    }
    /* the deals row (DEAL_ROW, ingest.rows.CleanRows.ROW) */
    if (!(row = PyTuple_New(R_SIZE))) goto fail;
    PyObject *card_points, *date;
    if (klop) {
        card_points = PyObject_CallFunctionObjArgs(PyTuple_GET_ITEM(ctx, C_KLOP_CARD_POINTS), players,
                                                   PyTuple_GET_ITEM(facts, FACT_KLOP_POINTS), NULL);
        PyTuple_SET_ITEM(row, R_DECLARER_POINTS, Py_NewRef(Py_None));
        PyTuple_SET_ITEM(row, R_OPPONENTS_POINTS, Py_NewRef(Py_None));
    } else {
        PyObject *ours = PyTuple_GET_ITEM(facts, FACT_DECLARER_POINTS);
        PyObject *theirs = PyTuple_GET_ITEM(facts, FACT_OPPONENTS_POINTS);
        PyTuple_SET_ITEM(row, R_DECLARER_POINTS, Py_NewRef(ours));
        PyTuple_SET_ITEM(row, R_OPPONENTS_POINTS, Py_NewRef(theirs));
        long dp = PyLong_AsLong(ours), op = PyLong_AsLong(theirs);
        PyObject *table = PyTuple_GET_ITEM(ctx, C_CARD_POINTS);
        card_points = NULL;
        if (dp >= 0 && op >= 0 && dp < PyList_GET_SIZE(table) && op < PyList_GET_SIZE(PyList_GET_ITEM(table, dp))) {
            card_points = Py_NewRef(PyList_GET_ITEM(PyList_GET_ITEM(table, dp), op));
        } else if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "add_clean: card points out of range");
        }
    }
    date = field[A_DATE] == Py_None ? Py_NewRef(Py_None)
                                   : PyObject_CallOneArg(PyTuple_GET_ITEM(ctx, C_PARSE_DATE), field[A_DATE]);
    PyObject *n_tricks = PyLong_FromLong(tr->nt);
    if (!card_points || !date || !n_tricks) {
        Py_XDECREF(card_points); Py_XDECREF(date); Py_XDECREF(n_tricks);
        goto fail;  /* the row's unset items are NULL: Py_DECREF of a tuple skips them */
    }
    PyTuple_SET_ITEM(row, R_CARD_POINTS_JSON, card_points);
    PyTuple_SET_ITEM(row, R_DATE, date);
    PyTuple_SET_ITEM(row, R_N_TRICKS, n_tricks);
    PyTuple_SET_ITEM(row, R_DEAL_ID, Py_NewRef(PLAIN_ITEM(plain, P_DEAL_ID)));
    PyTuple_SET_ITEM(row, R_CONTENT_HASH, Py_NewRef(PLAIN_ITEM(plain, P_DIGEST)));
    PyTuple_SET_ITEM(row, R_SOURCE_LINE, Py_NewRef(PLAIN_ITEM(plain, P_LINE)));
    PyTuple_SET_ITEM(row, R_SOURCE_POS, Py_NewRef(PLAIN_ITEM(plain, P_POS)));
    PyTuple_SET_ITEM(row, R_SESSION, Py_NewRef(session));
    PyTuple_SET_ITEM(row, R_SEQ, Py_NewRef(field[A_SEQ]));
    PyTuple_SET_ITEM(row, R_CONTRACT, Py_NewRef(field[A_CONTRACT]));
    PyTuple_SET_ITEM(row, R_DECLARER, Py_NewRef(declarer));
    PyTuple_SET_ITEM(row, R_PARTNER, Py_NewRef(partner < 0 ? Py_None : PyTuple_GET_ITEM(players, partner)));
    PyTuple_SET_ITEM(row, R_CALLED_KING, Py_NewRef(field[A_CALLED]));
    PyTuple_SET_ITEM(row, R_WON, Py_NewRef(won));
    PyTuple_SET_ITEM(row, R_HAS_RECORDED, Py_NewRef(has_sheet ? Py_True : Py_False));
    PyTuple_SET_ITEM(row, R_OPTIONS_HASH, Py_NewRef(PyTuple_GET_ITEM(texts, 1)));
    PyTuple_SET_ITEM(row, R_OPTIONS_JSON, Py_NewRef(PyTuple_GET_ITEM(texts, 0)));
    PyTuple_SET_ITEM(row, R_RECORD, Py_NewRef(PLAIN_ITEM(plain, P_TEXT)));
    /* the ``hands`` entry (ingest.hands.entry_of_cards, laid out as its HandEntry): the dealt hands as the kernel
     * read them, the talon the cards no hand holds (the kernel checked the deck), the pick as the record lists it */
    int64_t entry[HAND_FIXED + MAX_SEATS];
    uint64_t dealt = 0;
    for (int s = 0; s < n; s++) { entry[HAND_FIXED + s] = (int64_t)res.hands[s]; dealt |= res.hands[s]; }
    entry[0] = PyList_GET_SIZE(PyTuple_GET_ITEM(ctx, C_DEALS));
    entry[1] = seat;
    entry[2] = field[A_CALLED] == Py_None ? -1 : card_index(ctx, field[A_CALLED]);
    entry[3] = (int64_t)(FULL_DECK & ~dealt);
    entry[4] = field[A_PICK] == Py_None ? -1 : cards_bits(ctx, field[A_PICK]);
    if (entry[2] == -2 || entry[4] == -2
        || PyByteArray_Resize(hand_bytes, hands_at + (Py_ssize_t)sizeof(int64_t) * (HAND_FIXED + n)) < 0)
        goto fail;
    memcpy(PyByteArray_AS_STRING(hand_bytes) + hands_at, entry, sizeof(int64_t) * (HAND_FIXED + n));
    /* the roster, roles, ledger: nothing below fails but for memory */
    PyObject *rosters = PyTuple_GET_ITEM(ctx, C_ROSTERS), *roster_id = PyDict_GetItemWithError(rosters, players);
    if (!roster_id) {
        if (PyErr_Occurred()) goto fail;
        PyObject *next = PyLong_FromSsize_t(PyDict_GET_SIZE(rosters));
        if (!next || PyDict_SetItem(rosters, players, next) < 0) { Py_XDECREF(next); goto fail; }
        Py_DECREF(next);
        roster_id = PyDict_GetItem(rosters, players);
    }
    PyObject *roles = PyTuple_GET_ITEM(PyTuple_GET_ITEM(ctx, C_ROLES), (seat + 1) * (MAX_SEATS + 1) + partner + 1);
    if (session != Py_None && !ledger) {
        if (!(new_ledger = PyDict_New()) || PyDict_SetItem(ledgers, session, new_ledger) < 0) goto fail;
        ledger = new_ledger;
    }
    if (PyList_Append(deals, row) < 0 || extend(PyTuple_GET_ITEM(ctx, C_ROLE), roles) < 0
        || extend(PyTuple_GET_ITEM(ctx, C_SCORE), scores) < 0
        || extend(PyTuple_GET_ITEM(ctx, C_RADELCI_BEFORE), before) < 0
        || extend(PyTuple_GET_ITEM(ctx, C_RADELCI_AFTER), after) < 0
        || extend(PyTuple_GET_ITEM(ctx, C_BREAKDOWN_JSON), breakdown) < 0
        || extend(PyTuple_GET_ITEM(ctx, C_RECORDED_SCORE), on_sheet) < 0
        || extend(PyTuple_GET_ITEM(ctx, C_SCORE_DIFF), diffs) < 0
        || PyList_Append(PyTuple_GET_ITEM(ctx, C_ROSTER_OF), roster_id) < 0
        || PyList_Append(PyTuple_GET_ITEM(ctx, C_ADDED), PLAIN_ITEM(plain, P_POS)) < 0)
        goto fail;  /* out of memory: the shard fails as it would anyway */
    if (ledger)
        for (int s = 0; s < n; s++)
            if (PyDict_SetItem(ledger, PyTuple_GET_ITEM(players, s), PyTuple_GET_ITEM(after, s)) < 0) goto fail;
    result = Py_NewRef(Py_True);
    goto done;
decline:
    result = Py_NewRef(Py_False);
fail:
    if (!result || result == Py_False) {
        if (PyByteArray_GET_SIZE(tricks) > tricks_at) PyByteArray_Resize(tricks, tricks_at);
        if (PyByteArray_GET_SIZE(lines) > lines_at) PyByteArray_Resize(lines, lines_at);
        if (PyByteArray_GET_SIZE(hand_bytes) > hands_at) PyByteArray_Resize(hand_bytes, hands_at);
    }
done:
    for (int i = 0; i < N_ATTRS; i++) Py_DECREF(field[i]);
    Py_XDECREF(sheet);
    Py_XDECREF(sheet_radelci);
    Py_XDECREF(on_sheet);
    Py_XDECREF(facts);
    Py_XDECREF(scored);
    Py_XDECREF(before);
    Py_XDECREF(row);
    Py_XDECREF(new_ledger);
    return result;
}

static PyObject *py_add_clean(PyObject *self, PyObject *args) {
    PyObject *plain, *ctx, *roster, *texts, *extra = Py_None;
    if (!PyArg_ParseTuple(args, "O!O!OO!|O", &PyTuple_Type, &plain, &PyTuple_Type, &ctx, &roster, &PyTuple_Type,
                          &texts, &extra))
        return NULL;
    return add_clean(plain, ctx, roster, texts, extra);
}

/* add_plain(plain, contexts, rosters, texts) -> add_clean's answer, or None when the deal needs more than
 * ``contexts`` (by (contract, number of players): the contexts under the ingest's default options) and
 * ``rosters`` (the scorer's rosters by players) hold, or has options, a bidding or announcements: the caller
 * prepares those and calls add_clean. */
static PyObject *py_add_plain(PyObject *self, PyObject *args) {
    PyObject *plain, *contexts, *rosters, *texts;
    if (!PyArg_ParseTuple(args, "O!O!O!O!", &PyTuple_Type, &plain, &PyDict_Type, &contexts, &PyDict_Type, &rosters,
                          &PyTuple_Type, &texts))
        return NULL;
    if (plain_ok(plain) < 0) return NULL;
    PyObject *record = PLAIN_ITEM(plain, P_RECORD), *players = PLAIN_ITEM(plain, P_PLAYERS);
    PyObject *options = PyObject_GetAttr(record, name_options), *bidding = PyObject_GetAttr(record, name_bidding);
    PyObject *contract = PyObject_GetAttr(record, attr_names[A_CONTRACT]);
    PyObject *announced = PyObject_GetAttr(record, name_announcements);
    PyObject *result = NULL, *key = NULL;
    if (!options || !bidding || !contract || !announced) goto done;
    if (options != Py_None || bidding != Py_None || (announced != Py_None && PyObject_IsTrue(announced))
        || !PyTuple_Check(players)) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    PyObject *count = PyLong_FromSsize_t(PyTuple_GET_SIZE(players));
    if (!count) goto done;
    key = PyTuple_Pack(2, contract, count);
    Py_DECREF(count);
    if (!key) goto done;
    PyObject *ctx = PyDict_GetItemWithError(contexts, key), *roster = ctx ? PyDict_GetItemWithError(rosters, players) : NULL;
    if (!ctx || !roster) {
        if (!PyErr_Occurred()) result = Py_NewRef(Py_None);
        goto done;
    }
    if (roster == Py_None) { result = Py_NewRef(Py_False); goto done; }  /* names the scorer does not take */
    result = add_clean(plain, ctx, roster, texts, Py_None);
done:
    Py_XDECREF(options);
    Py_XDECREF(bidding);
    Py_XDECREF(contract);
    Py_XDECREF(announced);
    Py_XDECREF(key);
    return result;
}

static PyMethodDef methods[] = {
    {"init", py_init, METH_O, "Where the fields read here are in a plain record: its field names (Plain._fields)."},
    {"add_clean", py_add_clean, METH_VARARGS, "Ingest's bulk path for one clean deal: replayed, scored, its rows added."},
    {"add_plain", py_add_plain, METH_VARARGS, "add_clean for a deal under the default options, found by contract."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_bulkrows", "Ingest's bulk path in C.", -1, methods};

static PyObject *names_tuple(const char *const *names, int count) {
    PyObject *out = PyTuple_New(count);
    if (!out) return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *name = PyUnicode_InternFromString(names[i]);
        if (!name) { Py_DECREF(out); return NULL; }
        PyTuple_SET_ITEM(out, i, name);
    }
    return out;
}

static int add_new(PyObject *m, const char *name, PyObject *value) {
    if (!value) return -1;
    int rc = PyModule_AddObjectRef(m, name, value);
    Py_DECREF(value);
    return rc;
}

PyMODINIT_FUNC PyInit__bulkrows(void) {
    /* The kernel's functions, from the capsule it exports (importing tarock.accel._fastplay); an ImportError
     * when it is missing or was built from another kernel.h: ingest.bulk then leaves the bulk path off. */
    kernel = kernel_api_checked((const KernelApi *)PyCapsule_Import(KERNEL_API_CAPSULE, 0), "ingest._bulkrows");
    if (!kernel) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (add_new(m, "CONTEXT_FIELDS", names_tuple(context_names, C_SIZE)) < 0
        || add_new(m, "DEAL_ROW", names_tuple(row_names, R_SIZE)) < 0
        || add_new(m, "PLAIN_FIELDS", names_tuple(plain_names, P_COUNT)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
