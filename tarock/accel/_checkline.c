/*
 * ``tarock check``'s fast path in C (tarock/accel/checkline.py): a plain, clean Slovenian record replayed by the
 * rules kernel and its tricks written straight as the JSON a check result prints.
 *
 * ``replay`` hands the decoded record (tarock.formats.decode.plain_record's struct, as ingest's bulk path hands it:
 * ingest/_bulkrows.c) to the kernel's ``run_lane`` (tarock/accel/_fastplay.c, reached through its ``KERNEL_API``
 * capsule: tarock/accel/kernel.h) and gives back the declarer's and partner's seats, the kernel's facts tuple
 * (which the compiled scorer, tarock.accel.scorer, reads) and the ``tricks`` list of the check result
 * (tarock.check.result.Trick: leader, players, cards, winner, points) as JSON text.  The rules stay the kernel's;
 * this module holds no rule, only the layout of a check result's tricks.  The JSON text of each card code and
 * each card's points come from tarock.cards at ``init``, the player names' JSON text from the caller, both as the
 * check result's encoder writes them, so the text is byte for byte what encoding the reference's trick dicts
 * gives (tests/check/test_check_fast.py).
 */
#define _GNU_SOURCE  /* memmem */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "kernel.h"
#include "sheet.h"

static const KernelApi *kernel = NULL;
static PyObject *code_texts = NULL;  /* tuple: the JSON text (bytes) of each card code, by card index */
static long card_points[N_CARDS];
static Py_ssize_t longest_code_text = 0;  /* the longest of code_texts */

/* The decoded record's attributes read here. */
#define ATTRS(X)                                                                                                  \
    X(A_HANDS, "hands") X(A_TALON, "talon") X(A_TRICKS, "tricks") X(A_CALLED, "called_king") X(A_PICK, "talon_pick") \
    X(A_STASH, "stash") X(A_DECLARER, "declarer")
#define ENUM(id, name) id,
#define NAME(id, name) name,
enum { ATTRS(ENUM) N_ATTRS };
static const char *attr_texts[N_ATTRS] = {ATTRS(NAME)};
static PyObject *attr_names[N_ATTRS];

/* The decoded record's other attributes read or set by check_json. */
#define MORE_ATTRS(X)                                                                                              \
    X(M_PLAYERS, "players") X(M_ANNOUNCEMENTS, "announcements") X(M_SESSION, "session") X(M_RECORDED, "recorded") \
    X(M_DATE, "date") X(M_OPTIONS, "options") X(M_BIDDING, "bidding") X(M_CONTRACT, "contract") X(M_ID, "id")   \
    X(M_SEQ, "seq") X(M_EVENTS, "events") X(M_FORMAT, "format")
enum { MORE_ATTRS(ENUM) N_MORE };
static const char *more_texts[N_MORE] = {MORE_ATTRS(NAME)};
static PyObject *more_names[N_MORE], *name_scores, *name_radelci, *name_digest;

/* init(code_texts, points): the JSON text of every card code and every card's points, by card index. */
static PyObject *py_init(PyObject *self, PyObject *args) {
    PyObject *texts, *points;
    if (!PyArg_ParseTuple(args, "O!O!", &PyTuple_Type, &texts, &PyTuple_Type, &points)) return NULL;
    if (PyTuple_GET_SIZE(texts) != N_CARDS || PyTuple_GET_SIZE(points) != N_CARDS) {
        PyErr_SetString(PyExc_ValueError, "init: a JSON text and points for each of the 54 cards");
        return NULL;
    }
    for (int c = 0; c < N_CARDS; c++) {
        if (!PyBytes_Check(PyTuple_GET_ITEM(texts, c))) {
            PyErr_SetString(PyExc_TypeError, "init: the cards' JSON texts must be bytes");
            return NULL;
        }
        if (PyBytes_GET_SIZE(PyTuple_GET_ITEM(texts, c)) > longest_code_text)
            longest_code_text = PyBytes_GET_SIZE(PyTuple_GET_ITEM(texts, c));
        long p = PyLong_AsLong(PyTuple_GET_ITEM(points, c));
        if (p == -1 && PyErr_Occurred()) return NULL;
        card_points[c] = p;
    }
    for (int i = 0; i < N_ATTRS; i++)
        if (!attr_names[i] && !(attr_names[i] = PyUnicode_InternFromString(attr_texts[i]))) return NULL;
    for (int i = 0; i < N_MORE; i++)
        if (!more_names[i] && !(more_names[i] = PyUnicode_InternFromString(more_texts[i]))) return NULL;
    if ((!name_scores && !(name_scores = PyUnicode_InternFromString("scores")))
        || (!name_radelci && !(name_radelci = PyUnicode_InternFromString("radelci")))
        || (!name_digest && !(name_digest = PyUnicode_InternFromString("digest"))))
        return NULL;
    Py_INCREF(texts);
    Py_XSETREF(code_texts, texts);
    Py_RETURN_NONE;
}

/* A growing byte buffer. */
typedef struct {
    char *s;
    Py_ssize_t len, cap;
} Buf;

static int grow(Buf *b, Py_ssize_t more) {
    if (b->len + more <= b->cap) return 0;
    Py_ssize_t cap = b->cap ? b->cap : 2048;
    while (cap < b->len + more) cap *= 2;
    char *s = PyMem_Realloc(b->s, (size_t)cap);
    if (!s) { PyErr_NoMemory(); return -1; }
    b->s = s;
    b->cap = cap;
    return 0;
}

static int put(Buf *b, const char *s, Py_ssize_t n) {
    if (grow(b, n) < 0) return -1;
    memcpy(b->s + b->len, s, (size_t)n);
    b->len += n;
    return 0;
}

#define PUT_LITERAL(b, lit) put((b), (lit), (Py_ssize_t)sizeof(lit) - 1)

static int put_bytes(Buf *b, PyObject *bytes) { return put(b, PyBytes_AS_STRING(bytes), PyBytes_GET_SIZE(bytes)); }

static int put_number(Buf *b, long v) {
    char buf[24], *p = buf + sizeof buf;
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    do *--p = (char)('0' + u % 10); while (u /= 10);
    if (v < 0) *--p = '-';
    return put(b, p, buf + sizeof buf - p);
}

/* Appends known to fit (write_tricks reserves room first). */
static inline void put_fit(Buf *b, const char *s, Py_ssize_t n) {
    memcpy(b->s + b->len, s, (size_t)n);
    b->len += n;
}
#define PUT_FIT_LITERAL(b, lit) put_fit((b), (lit), (Py_ssize_t)sizeof(lit) - 1)
#define PUT_FIT_BYTES(b, bytes) put_fit((b), PyBytes_AS_STRING(bytes), PyBytes_GET_SIZE(bytes))

static int write_tricks(Buf *b, const Tricks *tr, PyObject *names) {
    /* The check result's ``tricks``: [{"leader","players","cards","winner","points"}, ...]. */
    Py_ssize_t longest_name = 0;
    for (Py_ssize_t s = 0; s < PyTuple_GET_SIZE(names); s++)
        if (PyBytes_GET_SIZE(PyTuple_GET_ITEM(names, s)) > longest_name)
            longest_name = PyBytes_GET_SIZE(PyTuple_GET_ITEM(names, s));
    /* per trick: its literals (64 bytes), a leader, a winner and n players' names, n codes, the points (24) */
    Py_ssize_t per_trick = 64 + (2 + tr->n) * (longest_name + 1) + tr->n * (longest_code_text + 1) + 24;
    if (grow(b, 2 + tr->nt * per_trick) < 0) return -1;
    PUT_FIT_LITERAL(b, "[");
    for (int t = 0; t < tr->nt; t++) {
        long points = 0;
        if (t) PUT_FIT_LITERAL(b, ",");
        PUT_FIT_LITERAL(b, "{\"leader\":");
        PUT_FIT_BYTES(b, PyTuple_GET_ITEM(names, tr->who[t][0]));
        PUT_FIT_LITERAL(b, ",\"players\":[");
        for (int i = 0; i < tr->n; i++) {
            if (i) PUT_FIT_LITERAL(b, ",");
            PUT_FIT_BYTES(b, PyTuple_GET_ITEM(names, tr->who[t][i]));
        }
        PUT_FIT_LITERAL(b, "],\"cards\":[");
        for (int i = 0; i < tr->n; i++) {
            points += card_points[tr->cards[t][i]];
            if (i) PUT_FIT_LITERAL(b, ",");
            PUT_FIT_BYTES(b, PyTuple_GET_ITEM(code_texts, tr->cards[t][i]));
        }
        PUT_FIT_LITERAL(b, "],\"winner\":");
        PUT_FIT_BYTES(b, PyTuple_GET_ITEM(names, tr->winners[t]));
        PUT_FIT_LITERAL(b, ",\"points\":");
        if (put_number(b, points) < 0) return -1;
        PUT_FIT_LITERAL(b, "}");
    }
    PUT_FIT_LITERAL(b, "]");
    return 0;
}

/* The kernel's replay of a decoded record's fields (borrowed) at a table of ``players``: 1 and ``res`` filled (its
 * facts a new reference), 0 to decline, -1 on an error.  ``seat`` is lane_declarer_seat's answer (not -2). */
static int replay_fields(PyObject *const *field, PyObject *players, int per_hand, int seat, int declarer_leads,
                         int calls_king, PyObject *plan, LaneResult *res) {
    LaneArgs a;
    lane_args_of_record(&a, field[A_HANDS], field[A_TALON], field[A_TRICKS], players, field[A_PICK], field[A_STASH],
                        field[A_CALLED], per_hand, seat, declarer_leads, calls_king);
    if (!(a.plan = kernel->lane_plan(plan))) return -1;
    return kernel->run_lane(&a, res);
}

/* replay(record, players, names, per_hand, has_declarer, declarer_leads, calls_king, lane_plan)
 *   -> (declarer seat, partner seat, facts, tricks JSON) or None to decline.
 * ``record`` is the decoded plain record, ``players`` its tuple of names, ``names`` their JSON texts (bytes, in
 * playing order), ``lane_plan`` the kernel's plan of the contract under the deal's options
 * (tarock.accel.lane.plan_for); a seat is -1 for none.  None when the kernel declines the deal (anything the
 * reference would have a word about) or the declarer is missing where the contract has one, or named where it
 * has none. */
static PyObject *py_replay(PyObject *self, PyObject *args) {
    PyObject *record, *players, *names, *plan;
    int per_hand, has_declarer, declarer_leads, calls_king;
    if (!PyArg_ParseTuple(args, "OO!O!iiiiO", &record, &PyTuple_Type, &players, &PyTuple_Type, &names, &per_hand,
                          &has_declarer, &declarer_leads, &calls_king, &plan))
        return NULL;
    if (!code_texts) {
        PyErr_SetString(PyExc_RuntimeError, "tarock.accel._checkline.init was not called");
        return NULL;
    }
    int n = (int)PyTuple_GET_SIZE(players);
    if (n < 1 || n > MAX_SEATS || PyTuple_GET_SIZE(names) != n) Py_RETURN_NONE;
    for (int s = 0; s < n; s++)
        if (!PyBytes_Check(PyTuple_GET_ITEM(names, s))) {
            PyErr_SetString(PyExc_TypeError, "replay: the players' JSON texts must be bytes");
            return NULL;
        }
    PyObject *field[N_ATTRS];
    for (int i = 0; i < N_ATTRS; i++) {
        field[i] = PyObject_GetAttr(record, attr_names[i]);
        if (!field[i]) { for (int j = 0; j < i; j++) Py_DECREF(field[j]); return NULL; }
    }
    PyObject *result = NULL;
    Buf b = {NULL, 0, 0};
    int seat = lane_declarer_seat(kernel, field[A_DECLARER], players, has_declarer);
    if (seat == -2) goto decline;
    LaneResult res;
    int rc = replay_fields(field, players, per_hand, seat, declarer_leads, calls_king, plan, &res);
    if (rc < 0) goto done;
    if (rc == 0) goto decline;
    if (write_tricks(&b, &res.tr, names) < 0) { Py_DECREF(res.facts); goto done; }
    PyObject *tricks = PyBytes_FromStringAndSize(b.s, b.len);
    if (!tricks) { Py_DECREF(res.facts); goto done; }
    result = Py_BuildValue("(iiNN)", seat, res.partner, res.facts, tricks);
    goto done;
decline:
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(b.s);
    for (int i = 0; i < N_ATTRS; i++) Py_DECREF(field[i]);
    return result;
}

/* -- check_json: a line of a JSON Lines file to its check result's JSON line, in one call ------------------- */

/* What check_json reads, laid out by these names (exported in this order as ``CONTEXT_FIELDS``; built by name
 * in tarock.check.fast.FastCheck.line_checker).  The caches are the caller's dicts; a miss asks the caller's
 * function beside it, which works the answer out in Python (by the reference's own tables) and gives it. */
#define CONTEXT(X)                                                                                                 \
    X(C_OUT, "out") X(C_FILE, "file") X(C_FILE_JSON, "file_json") X(C_DECODE, "decode")                          \
    X(C_DECODE_NAMED, "decode_named") X(C_DECODE_ERRORS, "decode_errors") X(C_ENCODE, "encode")                 \
    X(C_SHA256, "sha256") X(C_FORMAT, "format") X(C_PLAIN_DATE, "plain_date") X(C_ROSTERS, "rosters")           \
    X(C_ROSTER_OF, "roster_of") X(C_SPECS, "specs") X(C_SPEC_OF, "spec_of") X(C_BIDS, "bids")                   \
    X(C_BIDDING_AGREES, "bidding_agrees") X(C_SORT_OPTIONS, "sort_options") X(C_SCORER, "scorer")               \
    X(C_SCRATCH, "scratch") X(C_LOOSE, "loose") X(C_WRITTEN, "written") X(C_FILE_INDEX, "file_index")
enum { CONTEXT(ENUM) C_SIZE };
static const char *context_names[C_SIZE] = {CONTEXT(NAME)};

/* A spec: how to check deals of one contract, number of players and options (``spec_of``'s answer); its
 * ``biddings`` caches ``bidding_agrees``'s answers, which read its ``contract`` and ``options``. */
#define SPEC(X)                                                                                                    \
    X(S_PER_HAND, "per_hand") X(S_HAS_DECLARER, "has_declarer") X(S_DECLARER_LEADS, "declarer_leads")            \
    X(S_CALLS_KING, "calls_king") X(S_LANE_PLAN, "lane_plan") X(S_SCORE_PLAN, "score_plan") X(S_KLOP, "klop")    \
    X(S_CONTRACT_JSON, "contract_json") X(S_BIDDINGS, "biddings") X(S_CONTRACT, "contract") X(S_OPTIONS, "options")
enum { SPEC(ENUM) S_SIZE };
static const char *spec_names[S_SIZE] = {SPEC(NAME)};

/* A roster: what the names of a table need (``roster_of``'s answer). */
#define ROSTER(X) X(RO_TEXTS, "texts") X(RO_SCORER, "scorer_roster") X(RO_NAMED, "named_plays")
enum { ROSTER(ENUM) RO_SIZE };
static const char *roster_names[RO_SIZE] = {ROSTER(NAME)};


#define CTX(field) PyTuple_GET_ITEM(ctx, field)
#define CACHE_MAX 4096   /* a cache past this many entries is emptied */

static int put_text(Buf *b, PyObject *bytes_or_none) {
    return bytes_or_none == Py_None ? PUT_LITERAL(b, "null") : put_bytes(b, bytes_or_none);
}

/* ``{"name": value, ...}`` of a tuple of whole numbers by seat; the names' JSON texts in ``texts``. */
static int put_by_name(Buf *b, PyObject *texts, PyObject *values, int n) {
    if (!PyTuple_Check(values) || PyTuple_GET_SIZE(values) != n) {
        PyErr_SetString(PyExc_TypeError, "check_json: a value for each player expected");
        return -1;
    }
    if (PUT_LITERAL(b, "{") < 0) return -1;
    for (int s = 0; s < n; s++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(values, s));
        if (v == -1 && PyErr_Occurred()) return -1;
        if ((s && PUT_LITERAL(b, ",") < 0) || put_bytes(b, PyTuple_GET_ITEM(texts, s)) < 0 || PUT_LITERAL(b, ":") < 0
            || put_number(b, v) < 0)
            return -1;
    }
    return PUT_LITERAL(b, "}");
}

/* Whether the pending exception is one a decoding that does not fit raises (cleared): then 1, else 0. */
static int decode_failed(PyObject *ctx) {
    if (!PyErr_ExceptionMatches(CTX(C_DECODE_ERRORS))) return 0;
    PyErr_Clear();
    return 1;
}

/* A cache's answer for ``key``, or the answer of ``miss(*args)`` kept there: a new reference, NULL on an error. */
static PyObject *cached(PyObject *cache, PyObject *key, PyObject *miss, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *found = PyDict_GetItemWithError(cache, key);
    if (found) return Py_NewRef(found);
    if (PyErr_Occurred()) return NULL;
    found = PyObject_Vectorcall(miss, args, nargs, NULL);
    if (!found) return NULL;
    if (PyDict_GET_SIZE(cache) >= CACHE_MAX) PyDict_Clear(cache);
    if (PyDict_SetItem(cache, key, found) < 0) { Py_DECREF(found); return NULL; }
    return found;
}

/* Whether the record's hands name exactly the players (then, if their order is another, set in playing order,
 * as the canonical record has them): 1, 0, or -1 on an error. */
static int hands_of_players(PyObject *record, PyObject *hands, PyObject *players, int n) {
    if (!PyDict_Check(hands) || PyDict_GET_SIZE(hands) != n) return 0;
    Py_ssize_t pos = 0, s = 0;
    PyObject *key, *value;
    int in_order = 1;
    while (PyDict_Next(hands, &pos, &key, &value)) {
        PyObject *p = PyTuple_GET_ITEM(players, s++);
        if (key != p && PyUnicode_Compare(key, p) != 0) { if (PyErr_Occurred()) return -1; in_order = 0; }
    }
    if (in_order) return 1;
    PyObject *ordered = PyDict_New();
    if (!ordered) return -1;
    for (s = 0; s < n; s++) {
        PyObject *p = PyTuple_GET_ITEM(players, s), *cards = PyDict_GetItemWithError(hands, p);
        if (!cards || PyDict_SetItem(ordered, p, cards) < 0) {
            Py_DECREF(ordered);
            return PyErr_Occurred() ? -1 : 0;
        }
    }
    int rc = PyObject_SetAttr(record, attr_names[A_HANDS], ordered);
    Py_DECREF(ordered);
    return rc < 0 ? -1 : 1;
}

/* Whether every bid is (a player of the table, a bid of the ruleset): 1, 0, or -1 on an error. */
static int bids_known(PyObject *bidding, PyObject *players, PyObject *bids) {
    if (!PyList_Check(bidding)) return 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(bidding); i++) {
        PyObject *bid = PyList_GET_ITEM(bidding, i);
        if (!PyTuple_Check(bid) || PyTuple_GET_SIZE(bid) != 2) return 0;
        int known = PySequence_Contains(players, PyTuple_GET_ITEM(bid, 0));
        if (known > 0) known = PySet_Contains(bids, PyTuple_GET_ITEM(bid, 1));
        if (known <= 0) return known;
    }
    return 1;
}

static PyObject *last_options = NULL, *last_options_repr = NULL;  /* the last record's options and their repr */

/* Whether two options dicts hold the same keys in the same order, with values of the same types and equal (what
 * makes their reprs the same): 1, 0, or -1 on an error. */
static int same_options(PyObject *a, PyObject *b) {
    if (PyDict_GET_SIZE(a) != PyDict_GET_SIZE(b)) return 0;
    Py_ssize_t i = 0, j = 0;
    PyObject *ka, *va, *kb, *vb;
    while (PyDict_Next(a, &i, &ka, &va) && PyDict_Next(b, &j, &kb, &vb)) {
        if (Py_TYPE(ka) != Py_TYPE(kb) || Py_TYPE(va) != Py_TYPE(vb)) return 0;
        int same = PyObject_RichCompareBool(ka, kb, Py_EQ);
        if (same > 0) same = PyObject_RichCompareBool(va, vb, Py_EQ);
        if (same <= 0) return same;
    }
    return 1;
}

/* A record's options as the spec cache keys them: None, or their repr (which tells a text, a number and true
 * apart), the last one's again for the same options.  A new reference; NULL on an error. */
static PyObject *options_repr(PyObject *options) {
    if (options == Py_None) return Py_NewRef(Py_None);
    if (last_options && PyDict_CheckExact(options)) {
        int same = same_options(options, last_options);
        if (same < 0) return NULL;
        if (same) return Py_NewRef(last_options_repr);
    }
    PyObject *text = PyObject_Repr(options);
    if (!text) return NULL;
    if (PyDict_CheckExact(options)) {
        Py_XSETREF(last_options, Py_NewRef(options));
        Py_XSETREF(last_options_repr, Py_NewRef(text));
    }
    return text;
}

/* A bidding's key: each bid as its bidder's seat and its text, then the declarer's seat (-1: none), as bytes; None
 * (new) when a bidder is not at the table or the bidding is not a list of pairs of texts; NULL on an error. */
static PyObject *bidding_by_seat(PyObject *bidding, PyObject *players, int declarer) {
    if (!PyList_Check(bidding)) return Py_NewRef(Py_None);
    Buf b = {NULL, 0, 0};
    PyObject *key = NULL;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(bidding); i++) {
        PyObject *bid = PyList_GET_ITEM(bidding, i);
        if (!PyTuple_Check(bid) || PyTuple_GET_SIZE(bid) != 2 || !PyUnicode_Check(PyTuple_GET_ITEM(bid, 1))) {
            key = Py_NewRef(Py_None);
            goto done;
        }
        int seat = kernel->seat_of(PyTuple_GET_ITEM(bid, 0), players);
        if (seat < 0) { key = PyErr_Occurred() ? NULL : Py_NewRef(Py_None); goto done; }
        Py_ssize_t len;
        const char *text = PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(bid, 1), &len);
        if (!text) {  /* a lone surrogate: no bid of any ruleset */
            if (PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) { PyErr_Clear(); key = Py_NewRef(Py_None); }
            goto done;
        }
        char head[1 + sizeof len];
        head[0] = (char)seat;
        memcpy(head + 1, &len, sizeof len);  /* the text's length: texts may hold any character */
        if (put(&b, head, sizeof head) < 0 || put(&b, text, len) < 0) goto done;
    }
    char last = (char)(declarer + 1);
    if (put(&b, &last, 1) < 0) goto done;
    key = PyBytes_FromStringAndSize(b.s, b.len);
done:
    PyMem_Free(b.s);
    return key;
}

/* Whether every play is written "Name:CODE" (the kernel then checks the name and the code), as far as the kernel
 * leaves it to be said: it declines a trick mixing named plays and codes, so the first play of each trick tells.
 * 1 or 0. */
static int all_named(PyObject *tricks) {
    if (!PyList_Check(tricks)) return 0;
    for (Py_ssize_t t = 0; t < PyList_GET_SIZE(tricks); t++) {
        PyObject *trick = PyList_GET_ITEM(tricks, t);
        if (!PyList_Check(trick) || !PyList_GET_SIZE(trick)) return 0;
        PyObject *play = PyList_GET_ITEM(trick, 0);
        if (!PyUnicode_Check(play) || PyUnicode_FindChar(play, ':', 0, PyUnicode_GET_LENGTH(play), 1) < 0) return 0;
    }
    return 1;
}

/* A sheet's {player: number} (a dict) in playing order, as tarock.formats.decode._scores has it: a new reference,
 * or None (new) when it names someone not at the table; NULL on an error. */
static PyObject *in_playing_order(PyObject *values, PyObject *players) {
    if (!PyDict_Check(values)) return Py_NewRef(Py_None);
    Py_ssize_t pos = 0, s = 0, n = PyTuple_GET_SIZE(players);
    PyObject *key, *value;
    int in_order = 1;
    while (PyDict_Next(values, &pos, &key, &value)) {
        int known = PySequence_Contains(players, key);
        if (known < 0) return NULL;
        if (!known) return Py_NewRef(Py_None);
        while (in_order && s < n && PyUnicode_Compare(PyTuple_GET_ITEM(players, s), key) != 0) s++;
        if (PyErr_Occurred()) return NULL;
        if (s == n) in_order = 0;
    }
    if (in_order) return Py_NewRef(values);
    PyObject *ordered = PyDict_New();
    if (!ordered) return NULL;
    for (s = 0; s < n; s++) {
        PyObject *got = PyDict_GetItemWithError(values, PyTuple_GET_ITEM(players, s));
        if ((!got && PyErr_Occurred()) || (got && PyDict_SetItem(ordered, PyTuple_GET_ITEM(players, s), got) < 0)) {
            Py_DECREF(ordered);
            return NULL;
        }
    }
    return ordered;
}

/* The record's score sheet (its ``recorded`` struct) when it names only players of the table: its scores and its
 * radelci or None (new references in ``sheets``), both set in playing order on the struct as the canonical
 * record has them.  1, 0 (someone else named), or -1 on an error. */
static int sheet_of_players(PyObject *recorded, PyObject *players, PyObject **sheets) {
    PyObject *scores = PyObject_GetAttr(recorded, name_scores), *radelci = NULL;
    if (!scores) return -1;
    sheets[0] = in_playing_order(scores, players);
    Py_DECREF(scores);
    if (!sheets[0]) return -1;
    if (sheets[0] == Py_None) return 0;
    if (!(radelci = PyObject_GetAttr(recorded, name_radelci))) return -1;
    sheets[1] = radelci == Py_None ? Py_NewRef(Py_None) : in_playing_order(radelci, players);
    Py_DECREF(radelci);
    if (!sheets[1]) return -1;
    if (radelci != Py_None && sheets[1] == Py_None) return 0;
    if (PyObject_SetAttr(recorded, name_scores, sheets[0]) < 0
        || (sheets[1] != Py_None && PyObject_SetAttr(recorded, name_radelci, sheets[1]) < 0))
        return -1;
    return 1;
}

/* A check result's ``recorded``: the sheet's scores by name, in playing order (those it has). */
static int put_sheet(Buf *b, PyObject *sheet, PyObject *players, PyObject *texts) {
    int first = 1;
    if (PUT_LITERAL(b, "{") < 0) return -1;
    for (Py_ssize_t s = 0; s < PyTuple_GET_SIZE(players); s++) {
        PyObject *got = PyDict_GetItemWithError(sheet, PyTuple_GET_ITEM(players, s));
        if (!got) { if (PyErr_Occurred()) return -1; continue; }
        long v = PyLong_AsLong(got);
        if (v == -1 && PyErr_Occurred()) return -1;
        if ((!first && PUT_LITERAL(b, ",") < 0) || put_bytes(b, PyTuple_GET_ITEM(texts, s)) < 0
            || PUT_LITERAL(b, ":") < 0 || put_number(b, v) < 0)
            return -1;
        first = 0;
    }
    return PUT_LITERAL(b, "}");
}

static const char HEX[] = "0123456789abcdef";
static int named_first = 0;  /* whether the last record read needed the named plays' decoding */

#define NOT_NAMED 2  /* check_record's answer for a record read by the named plays' decoding whose plays are not */

/* check_record: 1 when the record's JSON line was written to the context's ``out``, 0 to decline, -1 on an error,
 * NOT_NAMED (nothing changed but the struct) when ``named`` and some play is not written "Name:CODE".
 * ``record`` is the decoded struct (``named``: by the decoding that reads "Name:CODE" plays). */
/* The place of a first copy (tarock.check.first_copies.place_of): its byte offset from bit 64 up, its line in the
 * LINE_BITS above the file's index in the low FILE_BITS; NULL with no error set when it has none (no offset, a
 * file that cannot be read at an offset: index -1, or numbers past the fields).  A new reference. */
#define FILE_BITS 24
#define LINE_BITS 40
static PyObject *place_of(PyObject *ctx, PyObject *line, long long offset) {
    long long index = PyLong_AsLongLong(CTX(C_FILE_INDEX)), line_no = PyLong_AsLongLong(line);
    if (PyErr_Occurred()) return NULL;
    if (offset < 0 || index < 0 || index >= (1LL << FILE_BITS) || line_no <= 0 || line_no >= (1LL << LINE_BITS))
        return NULL;
    PyObject *low = PyLong_FromUnsignedLongLong((unsigned long long)line_no << FILE_BITS | (unsigned long long)index);
    if (!low || offset == 0) return low;
    PyObject *high = PyLong_FromLongLong(offset), *shift = PyLong_FromLong(64), *shifted = NULL, *place = NULL;
    if (high && shift && (shifted = PyNumber_Lshift(high, shift))) place = PyNumber_Or(shifted, low);
    Py_XDECREF(high); Py_XDECREF(shift); Py_XDECREF(shifted); Py_DECREF(low);
    return place;
}

static int check_record(PyObject *ctx, PyObject *record, PyObject *line, PyObject *data, int named,
                        long long offset) {
    PyObject *field[N_ATTRS] = {NULL}, *more[N_MORE] = {NULL};
    PyObject *players = NULL, *roster = NULL, *canonical = NULL, *hash = NULL, *digest = NULL, *key16 = NULL;
    PyObject *spec_key = NULL, *options_key = NULL, *spec = NULL, *bidding_key = NULL, *agrees = NULL;
    PyObject *facts = NULL, *zeros = NULL, *scored = NULL, *id_json = NULL, *marker = NULL;
    PyObject *sheets[2] = {NULL, NULL};
    Buf b = {NULL, 0, 0};
    int rc = -1;
    for (int i = 0; i < N_ATTRS; i++)
        if (!(field[i] = PyObject_GetAttr(record, attr_names[i]))) goto done;
    for (int i = 0; i < N_MORE; i++)
        if (!(more[i] = PyObject_GetAttr(record, more_names[i]))) goto done;
    rc = 0;
    /* what the reference has a word about, or what needs a session's ledger: the usual way */
    if (more[M_SESSION] != Py_None) goto done;
    if (more[M_ANNOUNCEMENTS] != Py_None && (!PyList_Check(more[M_ANNOUNCEMENTS])
                                             || PyList_GET_SIZE(more[M_ANNOUNCEMENTS])))
        goto done;
    if (more[M_EVENTS] != Py_None && (!PyList_Check(more[M_EVENTS]) || PyList_GET_SIZE(more[M_EVENTS]))) goto done;
    rc = -1;
    if (more[M_DATE] != Py_None) {  /* tarock.formats.decode.plain_date */
        PyObject *ok = PyObject_CallOneArg(CTX(C_PLAIN_DATE), more[M_DATE]);
        if (!ok) goto done;
        int yes = ok == Py_True;
        Py_DECREF(ok);
        if (!yes) { rc = 0; goto done; }
    }
    if (!PyList_Check(more[M_PLAYERS])) { rc = 0; goto done; }
    if (!(players = PyList_AsTuple(more[M_PLAYERS]))) goto done;
    if (!(roster = cached(CTX(C_ROSTERS), players, CTX(C_ROSTER_OF), &players, 1))) goto done;
    int n = (int)PyTuple_GET_SIZE(players);
    if (roster == Py_None || n < 1 || n > MAX_SEATS) { rc = 0; goto done; }
    if (!PyTuple_Check(roster) || PyTuple_GET_SIZE(roster) != RO_SIZE) {
        PyErr_SetString(PyExc_TypeError, "check_json: roster_of gave no roster");
        goto done;
    }
    PyObject *texts = PyTuple_GET_ITEM(roster, RO_TEXTS);
    if (!PyTuple_Check(texts) || PyTuple_GET_SIZE(texts) != n) {
        PyErr_SetString(PyExc_TypeError, "check_json: a roster's JSON texts, one per player");
        goto done;
    }
    if (named && (PyTuple_GET_ITEM(roster, RO_NAMED) != Py_True || !all_named(field[A_TRICKS]))) {
        rc = NOT_NAMED;
        goto done;
    }
    int ok = hands_of_players(record, field[A_HANDS], players, n);
    if (ok <= 0) { rc = ok; goto done; }
    PyObject *sheet = NULL, *sheet_radelci = NULL;  /* the score sheet's {player: number}s, borrowed from ``sheets`` */
    if (more[M_RECORDED] != Py_None) {
        ok = sheet_of_players(more[M_RECORDED], players, sheets);
        if (ok <= 0) { rc = ok; goto done; }
        sheet = sheets[0];
        sheet_radelci = sheets[1] == Py_None ? NULL : sheets[1];
    }
    /* the canonical record (tarock.formats.decode._canonical) and its content hash */
    PyObject *options = more[M_OPTIONS];
    if (options != Py_None) {
        if (!PyDict_Check(options)) { rc = 0; goto done; }
        PyObject *sorted = PyDict_GET_SIZE(options) == 0 ? Py_NewRef(Py_None)
                         : PyDict_GET_SIZE(options) == 1 ? Py_NewRef(options)
                         : PyObject_CallOneArg(CTX(C_SORT_OPTIONS), options);
        if (!sorted) goto done;
        Py_SETREF(more[M_OPTIONS], sorted);
        options = sorted;
        if (PyObject_SetAttr(record, more_names[M_OPTIONS], options) < 0) goto done;
    }
    if (PyObject_SetAttr(record, more_names[M_FORMAT], CTX(C_FORMAT)) < 0
        || (more[M_ANNOUNCEMENTS] != Py_None && PyObject_SetAttr(record, more_names[M_ANNOUNCEMENTS], Py_None) < 0)
        || (more[M_EVENTS] != Py_None && PyObject_SetAttr(record, more_names[M_EVENTS], Py_None) < 0))
        goto done;
    if (!(canonical = PyObject_CallOneArg(CTX(C_ENCODE), record))) goto done;
    if (!(hash = PyObject_CallOneArg(CTX(C_SHA256), canonical))) goto done;
    if (!(digest = PyObject_CallMethodNoArgs(hash, name_digest))) goto done;
    if (!PyBytes_Check(digest) || PyBytes_GET_SIZE(digest) < 16) {
        PyErr_SetString(PyExc_TypeError, "check_json: sha256 gave no digest");
        goto done;
    }
    if (!(key16 = PyBytes_FromStringAndSize(PyBytes_AS_STRING(digest), 16))) goto done;
    ok = PyDict_Contains(CTX(C_LOOSE), key16);  /* a copy of a deal seen before: the usual way says so */
    if (ok) { rc = ok < 0 ? -1 : 0; goto done; }
    /* the spec: by contract, number of players and the options' repr (which tells a text, a number and true apart) */
    if (!(options_key = options_repr(options))) goto done;
    PyObject *count = PyLong_FromLong(n);
    if (!count) goto done;
    spec_key = PyTuple_Pack(3, more[M_CONTRACT], count, options_key);
    Py_DECREF(count);
    if (!spec_key) goto done;
    PyObject *spec_args[3] = {more[M_CONTRACT], PyTuple_GET_ITEM(spec_key, 1), options};
    if (!(spec = cached(CTX(C_SPECS), spec_key, CTX(C_SPEC_OF), spec_args, 3))) goto done;
    if (spec == Py_None) { rc = 0; goto done; }
    if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) != S_SIZE) {
        PyErr_SetString(PyExc_TypeError, "check_json: spec_of gave no spec");
        goto done;
    }
    int has_declarer = PyObject_IsTrue(PyTuple_GET_ITEM(spec, S_HAS_DECLARER));
    int seat = lane_declarer_seat(kernel, field[A_DECLARER], players, has_declarer);
    if (seat == -2) { rc = 0; goto done; }
    if (more[M_BIDDING] != Py_None) {
        /* the bidding ends in the contract and declarer played: remembered per spec by the bids by seat and the
         * declarer's seat (bidding_agrees reads no name but to write an error); a bidding is asked about, and
         * remembered, only once its bidders are at the table and its bids are the ruleset's */
        if (!(bidding_key = bidding_by_seat(more[M_BIDDING], players, seat))) goto done;
        if (bidding_key == Py_None) { rc = 0; goto done; }
        PyObject *biddings = PyTuple_GET_ITEM(spec, S_BIDDINGS);
        if ((agrees = PyDict_GetItemWithError(biddings, bidding_key))) {
            Py_INCREF(agrees);
        } else {
            if (PyErr_Occurred() || (ok = bids_known(more[M_BIDDING], players, CTX(C_BIDS))) < 0) goto done;
            if (!ok) { rc = 0; goto done; }
            PyObject *bids = PyList_AsTuple(more[M_BIDDING]);
            if (!bids) goto done;
            PyObject *agree_args[4] = {bids, players, field[A_DECLARER], spec};
            agrees = PyObject_Vectorcall(CTX(C_BIDDING_AGREES), agree_args, 4, NULL);
            Py_DECREF(bids);
            if (!agrees) goto done;
            if (PyDict_GET_SIZE(biddings) >= 1 << 16) PyDict_Clear(biddings);
            if (PyDict_SetItem(biddings, bidding_key, agrees) < 0) goto done;
        }
        if (agrees != Py_True) { rc = 0; goto done; }
    }
    /* the replay and the score */
    LaneResult res;
    long per_hand = PyLong_AsLong(PyTuple_GET_ITEM(spec, S_PER_HAND));
    int leads = PyObject_IsTrue(PyTuple_GET_ITEM(spec, S_DECLARER_LEADS));
    int calls = PyObject_IsTrue(PyTuple_GET_ITEM(spec, S_CALLS_KING));
    if (PyErr_Occurred()) goto done;
    ok = replay_fields(field, players, (int)per_hand, seat, leads, calls, PyTuple_GET_ITEM(spec, S_LANE_PLAN), &res);
    if (ok <= 0) { rc = ok; goto done; }
    facts = res.facts;
    if (!(zeros = PyTuple_New(n))) goto done;
    for (int s = 0; s < n; s++) PyTuple_SET_ITEM(zeros, s, PyLong_FromLong(0));
    PyObject *declarer_seat = seat < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(seat);
    PyObject *partner_seat = res.partner < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(res.partner);
    PyObject *first_row = PyLong_FromLong(0);
    if (declarer_seat && partner_seat && first_row) {
        PyObject *call[10] = {PyTuple_GET_ITEM(spec, S_SCORE_PLAN), PyTuple_GET_ITEM(roster, RO_SCORER), declarer_seat,
                              partner_seat, facts, zeros, first_row, CTX(C_SCRATCH), Py_None, Py_True};
        scored = PyObject_Vectorcall(CTX(C_SCORER), call, 10, NULL);
    }
    Py_XDECREF(declarer_seat);
    Py_XDECREF(partner_seat);
    Py_XDECREF(first_row);
    if (!scored || PyByteArray_Resize(CTX(C_SCRATCH), 0) < 0) goto done;
    if (scored == Py_None) { rc = 0; goto done; }
    if (!PyTuple_Check(scored) || PyTuple_GET_SIZE(scored) != 5 || !PyBytes_Check(PyTuple_GET_ITEM(scored, 4))) {
        PyErr_SetString(PyExc_TypeError, "check_json: the scorer returned something else");
        goto done;
    }
    PyObject *won = PyTuple_GET_ITEM(scored, 0), *scores = PyTuple_GET_ITEM(scored, 1);
    PyObject *after = PyTuple_GET_ITEM(scored, 2), *breakdown = PyTuple_GET_ITEM(scored, 4);
    /* a sheet that says anything else has findings (tarock.check.audit): the usual way */
    if (sheet && ((ok = sheet_says(sheet, players, scores)) <= 0
                  || (sheet_radelci && (ok = sheet_says(sheet_radelci, players, after)) <= 0))) {
        rc = ok;
        goto done;
    }
    /* the line: tarock.check.result.DealCheck's fields in their order, those at their defaults left out */
    const unsigned char *d = (const unsigned char *)PyBytes_AS_STRING(digest);
    if (more[M_ID] == Py_None) {
        char id[2 + 16 + 1];
        id[0] = id[17] = '"';
        for (int i = 0; i < 8; i++) { id[1 + 2 * i] = HEX[d[i] >> 4]; id[2 + 2 * i] = HEX[d[i] & 15]; }
        if (PUT_LITERAL(&b, "{\"id\":") < 0 || put(&b, id, 18) < 0) goto done;
    } else {
        if (!(id_json = PyObject_CallOneArg(CTX(C_ENCODE), more[M_ID]))) goto done;
        if (!PyBytes_Check(id_json)) { PyErr_SetString(PyExc_TypeError, "check_json: encode gave no bytes"); goto done; }
        if (PUT_LITERAL(&b, "{\"id\":") < 0 || put_bytes(&b, id_json) < 0) goto done;
    }
    long line_no = PyLong_AsLong(line);
    if (line_no == -1 && PyErr_Occurred()) goto done;
    if (PUT_LITERAL(&b, ",\"file\":") < 0 || put_bytes(&b, CTX(C_FILE_JSON)) < 0 || PUT_LITERAL(&b, ",\"line\":") < 0
        || put_number(&b, line_no) < 0 || PUT_LITERAL(&b, ",\"session\":null,\"seq\":") < 0)
        goto done;
    if (more[M_SEQ] == Py_None) {
        if (PUT_LITERAL(&b, "null") < 0) goto done;
    } else {
        long long seq = PyLong_AsLongLong(more[M_SEQ]);
        if (seq == -1 && PyErr_Occurred()) goto done;
        char num[24];
        int len = snprintf(num, sizeof num, "%lld", seq);
        if (put(&b, num, len) < 0) goto done;
    }
    if (PUT_LITERAL(&b, ",\"status\":\"ok\",\"findings\":[],\"ruleset\":\"slovenian\",\"players\":[") < 0) goto done;
    for (int s = 0; s < n; s++)
        if ((s && PUT_LITERAL(&b, ",") < 0) || put_bytes(&b, PyTuple_GET_ITEM(texts, s)) < 0) goto done;
    if (PUT_LITERAL(&b, "],\"contract\":") < 0 || put_bytes(&b, PyTuple_GET_ITEM(spec, S_CONTRACT_JSON)) < 0
        || PUT_LITERAL(&b, ",\"declarer\":") < 0 || put_text(&b, seat < 0 ? Py_None : PyTuple_GET_ITEM(texts, seat)) < 0
        || PUT_LITERAL(&b, ",\"partner\":") < 0
        || put_text(&b, res.partner < 0 ? Py_None : PyTuple_GET_ITEM(texts, res.partner)) < 0
        || PUT_LITERAL(&b, ",\"tricks\":") < 0 || write_tricks(&b, &res.tr, texts) < 0
        || PUT_LITERAL(&b, ",\"card_points\":") < 0)
        goto done;
    if (PyTuple_GET_ITEM(spec, S_KLOP) == Py_True) {
        if (put_by_name(&b, texts, PyTuple_GET_ITEM(facts, FACT_KLOP_POINTS), n) < 0) goto done;
    } else {
        long ours = PyLong_AsLong(PyTuple_GET_ITEM(facts, FACT_DECLARER_POINTS));
        long theirs = PyLong_AsLong(PyTuple_GET_ITEM(facts, FACT_OPPONENTS_POINTS));
        if (PyErr_Occurred() || PUT_LITERAL(&b, "{\"declarer_side\":") < 0 || put_number(&b, ours) < 0
            || PUT_LITERAL(&b, ",\"opponents\":") < 0 || put_number(&b, theirs) < 0 || PUT_LITERAL(&b, "}") < 0)
            goto done;
    }
    if (PUT_LITERAL(&b, ",\"scores\":") < 0 || put_by_name(&b, texts, scores, n) < 0
        || PUT_LITERAL(&b, ",\"breakdown\":") < 0 || put_bytes(&b, breakdown) < 0
        || PUT_LITERAL(&b, ",\"radelci_before\":") < 0 || put_by_name(&b, texts, zeros, n) < 0
        || PUT_LITERAL(&b, ",\"radelci_after\":") < 0 || put_by_name(&b, texts, after, n) < 0
        || PUT_LITERAL(&b, ",\"won\":") < 0
        || (won == Py_None ? PUT_LITERAL(&b, "null") : won == Py_True ? PUT_LITERAL(&b, "true")
                                                                     : PUT_LITERAL(&b, "false")) < 0
        || PUT_LITERAL(&b, ",\"penalty\":\"none\",\"unpenalised\":null,\"recorded\":") < 0
        || (sheet ? put_sheet(&b, sheet, players, texts) : PUT_LITERAL(&b, "null")) < 0 || PUT_LITERAL(&b, "}\n") < 0)
        goto done;
    /* the first copy of a deal outside any session: a later copy's result is this one's, worked out again from
     * its place, or else from its text (tarock.check.sessions.SessionScorer.first_copy) */
    marker = place_of(ctx, line, offset);
    if (!marker && (PyErr_Occurred() || !(marker = PyTuple_Pack(3, CTX(C_FILE), line, data)))) goto done;
    if (PyDict_SetItem(CTX(C_LOOSE), key16, marker) < 0) goto done;
    PyObject *out = CTX(C_OUT);
    Py_ssize_t at = PyByteArray_GET_SIZE(out);
    if (PyByteArray_Resize(out, at + b.len) < 0) goto done;
    memcpy(PyByteArray_AS_STRING(out) + at, b.s, (size_t)b.len);
    rc = 1;
done:
    PyMem_Free(b.s);
    for (int i = 0; i < N_ATTRS; i++) Py_XDECREF(field[i]);
    for (int i = 0; i < N_MORE; i++) Py_XDECREF(more[i]);
    Py_XDECREF(players); Py_XDECREF(roster); Py_XDECREF(canonical); Py_XDECREF(hash); Py_XDECREF(digest);
    Py_XDECREF(key16); Py_XDECREF(spec_key); Py_XDECREF(options_key); Py_XDECREF(spec); Py_XDECREF(bidding_key);
    Py_XDECREF(agrees); Py_XDECREF(facts); Py_XDECREF(zeros); Py_XDECREF(scored); Py_XDECREF(id_json);
    Py_XDECREF(marker);
    Py_XDECREF(sheets[0]);
    Py_XDECREF(sheets[1]);
    return rc;
}

/* One line's verdict: the context's ``written`` when its JSON line was written, None when the text is no plain
 * record (neither decoding reads it), else the decoded record (the struct, in canonical shape as far as it was
 * made so: what tarock.formats.decode.plain_of then reads as ValidPlainReader would).  NULL on an error. */
static PyObject *verdict(PyObject *ctx, PyObject *line, PyObject *data, long long offset) {
    /* first the decoding the last record needed (tarock.formats.decode.ValidPlainReader: the named plays' decoding
     * reads every text the codes' decoding reads) */
    int named = named_first;
    PyObject *record = PyObject_CallOneArg(CTX(named ? C_DECODE_NAMED : C_DECODE), data);
    if (!record) {
        if (!decode_failed(ctx)) return NULL;
        if (named) Py_RETURN_NONE;
        if (!(record = PyObject_CallOneArg(CTX(C_DECODE_NAMED), data))) {
            if (!decode_failed(ctx)) return NULL;
            Py_RETURN_NONE;
        }
        named = 1;
    }
    int rc = check_record(ctx, record, line, data, named, offset);
    if (rc == NOT_NAMED) {  /* plays written as codes, most likely: the codes' decoding, first from now on */
        named_first = 0;
        Py_DECREF(record);
        if (!(record = PyObject_CallOneArg(CTX(C_DECODE), data))) {
            if (!decode_failed(ctx)) return NULL;
            Py_RETURN_NONE;  /* the named plays' decoding read it, but not every play is named: no plain record */
        }
        rc = check_record(ctx, record, line, data, 0, offset);
    } else if (named) {
        named_first = 1;
    }
    if (rc < 0) { Py_DECREF(record); return NULL; }
    if (rc == 1) { Py_DECREF(record); return Py_NewRef(CTX(C_WRITTEN)); }
    return record;
}

static int check_context(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t want, const char *usage) {
    if (nargs != want || !PyTuple_Check(args[0]) || PyTuple_GET_SIZE(args[0]) != C_SIZE) {
        PyErr_SetString(PyExc_TypeError, usage);
        return -1;
    }
    if (!code_texts) {
        PyErr_SetString(PyExc_RuntimeError, "tarock.accel._checkline.init was not called");
        return -1;
    }
    return 0;
}

/* check_json(context, line, data, offset) -> the verdict on line ``line`` of a JSON Lines file (``data``, its
 * text, starting at byte ``offset`` of the file, -1 when not known): the context's ``written`` when it is a plain,
 * clean record outside any session, checked here (the kernel's replay, the compiled scorer) and its check result's
 * JSON line appended to ``out``, byte for byte what encoding the usual path's result gives
 * (tests/check/test_check_json_line.py), its place (or else its text) kept in ``loose``; None when the text is no
 * plain record; else the decoded record, which goes the usual way (nothing the caller keeps was changed).
 * ``context`` is laid out by ``CONTEXT_FIELDS``. */
static PyObject *py_check_json(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (check_context(args, nargs, 4, "check_json(context, line, data, offset)") < 0) return NULL;
    long long offset = PyLong_AsLongLong(args[3]);
    if (offset == -1 && PyErr_Occurred()) return NULL;
    return verdict(args[0], args[1], args[2], offset);
}

/* Whether a line is blank: empty, or ASCII white space only (bytes.isspace). */
static int blank(const char *s, Py_ssize_t len) {
    for (Py_ssize_t i = 0; i < len; i++)
        if (!(s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r'))) return 0;
    return 1;
}

#define OUT_FLUSH (1 << 16)  /* check_lines stops once ``out`` holds this much (64 KiB), so the caller writes it out */

/* check_lines(context, chunk, pos, line, max_line_bytes, base) -> (pos, line, written, verdict):
 * tarock.formats.reader.read_records's ``take_lines``: check_json on each whole line of ``chunk`` from ``pos`` on
 * (line number ``line`` there; a blank line skipped), as long as it writes them, up to a line longer than
 * ``max_line_bytes``, one not ended in the chunk, or once ``out`` holds OUT_FLUSH bytes.  ``base`` is the file
 * offset of the chunk's first byte (-1: not known), so a line's offset is ``base`` plus its position.  Gives where
 * it stopped, how many lines it wrote, and the verdict on the line it stopped at when check_json did not write it
 * (None when it stopped for another reason; the verdict None is given as ``False``: no plain record). */
static PyObject *py_check_lines(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (check_context(args, nargs, 6, "check_lines(context, chunk, pos, line, max_line_bytes, base)") < 0)
        return NULL;
    PyObject *ctx = args[0], *chunk = args[1];
    if (!PyBytes_Check(chunk)) { PyErr_SetString(PyExc_TypeError, "check_lines: the chunk must be bytes"); return NULL; }
    Py_ssize_t pos = PyLong_AsSsize_t(args[2]), line_no = PyLong_AsSsize_t(args[3]);
    Py_ssize_t max_bytes = PyLong_AsSsize_t(args[4]);
    long long base = PyLong_AsLongLong(args[5]);
    if (PyErr_Occurred()) return NULL;
    const char *s = PyBytes_AS_STRING(chunk);
    Py_ssize_t len = PyBytes_GET_SIZE(chunk), written = 0;
    PyObject *stopped = Py_NewRef(Py_None), *out = CTX(C_OUT);
    while (pos >= 0 && pos < len && PyByteArray_GET_SIZE(out) < OUT_FLUSH) {
        const char *nl = memchr(s + pos, '\n', (size_t)(len - pos));
        if (!nl) break;
        Py_ssize_t end = nl - s;
        if (end - pos > max_bytes) break;
        if (blank(s + pos, end - pos)) { pos = end + 1; line_no++; continue; }
        PyObject *data = PyBytes_FromStringAndSize(s + pos, end - pos), *line = PyLong_FromSsize_t(line_no);
        PyObject *got = data && line ? verdict(ctx, line, data, base < 0 ? -1 : base + pos) : NULL;
        Py_XDECREF(data);
        Py_XDECREF(line);
        if (!got) { Py_DECREF(stopped); return NULL; }
        if (got != CTX(C_WRITTEN)) {
            Py_SETREF(stopped, got == Py_None ? Py_NewRef(Py_False) : Py_NewRef(got));
            Py_DECREF(got);
            break;
        }
        Py_DECREF(got);
        written++;
        pos = end + 1;
        line_no++;
    }
    return Py_BuildValue("(nnnN)", pos, line_no, written, stopped);
}

/* holds(data, needle) -> whether ``needle`` occurs in ``data`` (bytes): glibc's memmem, many times as fast as
 * bytes.find over megabytes (tarock.check.sessions.plan_files looks through whole files for a session). */
static PyObject *py_holds(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyBytes_Check(args[0]) || !PyBytes_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "holds(data: bytes, needle: bytes)");
        return NULL;
    }
    const void *found = memmem(PyBytes_AS_STRING(args[0]), (size_t)PyBytes_GET_SIZE(args[0]),
                               PyBytes_AS_STRING(args[1]), (size_t)PyBytes_GET_SIZE(args[1]));
    return PyBool_FromLong(found != NULL);
}

static PyMethodDef methods[] = {
    {"holds", (PyCFunction)(void (*)(void))py_holds, METH_FASTCALL, "Whether a needle occurs in bytes (memmem)."},
    {"init", py_init, METH_VARARGS, "The JSON text of every card code and every card's points, by card index."},
    {"replay", py_replay, METH_VARARGS, "A plain clean Slovenian record's seats, facts and tricks JSON, else None."},
    {"check_json", (PyCFunction)(void (*)(void))py_check_json, METH_FASTCALL,
     "check_json(context, line, data, offset): a plain clean record's check result written as its JSON line."},
    {"check_lines", (PyCFunction)(void (*)(void))py_check_lines, METH_FASTCALL,
     "check_lines(context, chunk, pos, line, max_line_bytes, base): check_json on each line of a chunk while it "
     "writes."},
    {NULL, NULL, 0, NULL},
};

/* A module constant: a tuple of these names. */
static int add_names(PyObject *m, const char *name, const char *const *names, int count) {
    PyObject *out = PyTuple_New(count);
    if (!out) return -1;
    for (int i = 0; i < count; i++) {
        PyObject *text = PyUnicode_InternFromString(names[i]);
        if (!text) { Py_DECREF(out); return -1; }
        PyTuple_SET_ITEM(out, i, text);
    }
    int rc = PyModule_AddObjectRef(m, name, out);
    Py_DECREF(out);
    return rc;
}

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_checkline", "tarock check's fast path in C.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__checkline(void) {
    /* The kernel's functions, from the capsule it exports; an ImportError when it is missing or was built from
     * another kernel.h: tarock.accel.checkline then leaves the fast path off. */
    kernel = kernel_api_checked((const KernelApi *)PyCapsule_Import(KERNEL_API_CAPSULE, 0),
                                "tarock.accel._checkline");
    if (!kernel) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (add_names(m, "CONTEXT_FIELDS", context_names, C_SIZE) < 0 || add_names(m, "SPEC_FIELDS", spec_names, S_SIZE) < 0
        || add_names(m, "ROSTER_FIELDS", roster_names, RO_SIZE) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
