/*
 * The engine's hot path in C: who played each recorded card, who won each trick, and whether every
 * card of a deal's play was held and legal -- for a whole deal in one call; and the fast lane, a whole clean
 * Slovenian deal (deal, king, talon exchange, play and the facts scoring needs) in one call.
 *
 * This is an accelerator, not a second rulebook.  The card tables come from tarock.cards, read by name
 * (``init``); the rules a deal is played by are read by name too, once per contract and options, from a
 * mapping tarock/accel/projection.py builds from the reference's own objects (``lane_plan``, ``rules``: the
 * names are the members of kernel.h's ``Rules`` and ``OutcomeRules``, exported as ``PLAY_RULE_FIELDS`` and
 * ``OUTCOME_RULE_FIELDS``); the codes of its answers are exported by name (``DECLARER_FACTS``, ``KLOP_FACTS``,
 * ``SIDES``, ``PAGAT_LAST``, the ``EMPEROR_*`` modes).  It answers only for a deal it can vouch for completely
 * and returns None for anything else: the Python engine (tarock.engine, the reference) then replays the deal
 * card by card, writing the findings.  tests/accel/test_fast_lane.py checks both agree on generated deals
 * with every kind of renons.
 *
 * It knows nothing of the store: ingest's bulk path (ingest/_bulkrows.c) reaches ``run_lane`` through the
 * ``KERNEL_API`` capsule (kernel.h).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel.h"
#include "tables.h"

static uint8_t card_suit[N_CARDS];
static uint8_t card_points[N_CARDS];
static uint64_t suit_mask[5];
static uint64_t above[N_CARDS];
static uint64_t tarok_mask, plain_mask, trula_mask, kings_mask;
static int pagat = 0, mond = 20, skis = 21, tarok_suit = 0;
static int ready = 0;
static PyObject *codes = NULL;  /* tarock.cards.CODES: the canonical code of each card */
static PyObject *key_leader, *key_players, *key_cards, *key_winner, *key_points;

/* Card codes as text ("T21", "SK"): an open-addressing table from the code's bytes to its card, filled from
 * ``codes`` at init, so records decoded without converting their cards can be played directly. */
#define CODE_SLOTS 256
static uint32_t code_key[CODE_SLOTS];
static int8_t code_card[CODE_SLOTS];

static inline uint32_t code_hash(uint32_t key) { return (key * 2654435761u) >> 24; }

static uint32_t pack_code(PyObject *text) {
    /* A 2- or 3-character ASCII str as one number (0 for anything else). */
    if (!PyUnicode_Check(text) || !PyUnicode_IS_COMPACT_ASCII(text)) return 0;
    Py_ssize_t len = PyUnicode_GET_LENGTH(text);
    if (len < 2 || len > 3) return 0;
    const unsigned char *c = (const unsigned char *)PyUnicode_DATA(text);
    return c[0] | (uint32_t)c[1] << 8 | (len == 3 ? (uint32_t)c[2] << 16 : 0);
}

static inline Py_ssize_t seq_len(PyObject *s) {
    /* The length of a tuple or list, -1 for anything else. */
    return PyTuple_Check(s) ? PyTuple_GET_SIZE(s) : PyList_Check(s) ? PyList_GET_SIZE(s) : -1;
}

static inline PyObject *seq_at(PyObject *s, Py_ssize_t i) {
    return PyTuple_Check(s) ? PyTuple_GET_ITEM(s, i) : PyList_GET_ITEM(s, i);
}

/* The very ``codes`` objects by address: typed decoding hands them back for every card (msgspec's Literal). */
static PyObject *code_object[CODE_SLOTS];
static int8_t code_object_card[CODE_SLOTS];

static inline uint32_t object_slot(PyObject *o) { return (uint32_t)(((uintptr_t)o >> 4) * 2654435761u) >> 24; }

static int card_of(PyObject *item) {
    /* A card given as its number or its canonical code; -1 when it is neither. */
    for (uint32_t slot = object_slot(item); code_object[slot]; slot = (slot + 1) % CODE_SLOTS)
        if (code_object[slot] == item) return code_object_card[slot];
    if (PyLong_Check(item)) {
        long c = PyLong_AsLong(item);
        if (c < 0 || c >= N_CARDS) { PyErr_Clear(); return -1; }
        return (int)c;
    }
    uint32_t key = pack_code(item);
    if (!key) return -1;
    for (uint32_t slot = code_hash(key);; slot = (slot + 1) % CODE_SLOTS) {
        if (code_key[slot] == key) return code_card[slot];
        if (!code_key[slot]) return -1;
    }
}

/* tarock.rules.play's emperor modes, exported by these names (``EMPEROR_NEVER`` ...) and checked against the
 * reference's at load (tarock/accel/projection.py). */
enum { EMPEROR_NEVER, EMPEROR_ALWAYS, EMPEROR_TAROK_LEAD };

static inline int lowest(uint64_t m) { return __builtin_ctzll(m); }

static uint64_t beating(uint64_t obliged, int winner) {
    int suit = card_suit[lowest(obliged)];
    if (card_suit[winner] == suit) return obliged & above[winner];
    if (suit == tarok_suit) return obliged;
    return 0;
}

/* tarock.rules.play.legal_mask, mask for mask. */
static uint64_t legal_mask(uint64_t hand, int led, int winner, uint64_t trick, const Rules *r) {
    const uint64_t pagat_bit = 1ULL << pagat;
    const uint64_t mond_skis = (1ULL << mond) | (1ULL << skis);
    if (led < 0) {
        if (r->pagat_last && (hand & pagat_bit) && (hand & r->pagat_scope) != pagat_bit) return hand & ~pagat_bit;
        if (r->tarok_lead_last && (hand & plain_mask)) return hand & plain_mask;
        return hand;
    }
    uint64_t obliged = hand & suit_mask[card_suit[led]];
    if (!obliged) {
        if (r->void_tarok && (hand & tarok_mask)) obliged = hand & tarok_mask;
        else return hand;
    }
    int emperor_ready = (trick & mond_skis) == mond_skis;
    if (emperor_ready && r->force_pagat && (obliged & pagat_bit)) return pagat_bit;
    if (r->negative) {
        uint64_t beat = beating(obliged, winner);
        if (beat) obliged = beat;
        if (r->pagat_last && (obliged & pagat_bit) && obliged != pagat_bit && !(emperor_ready && r->pagat_emperor))
            obliged &= ~pagat_bit;
    }
    return obliged;
}

/* tarock.rules.play.trick_winner over an array of cards. */
static int trick_winner(const int *cards, int n, int trumps, int emperor) {
    int led_suit = card_suit[cards[0]];
    int best = 0, best_card = cards[0], has_pagat = 0, has_mond = 0, has_skis = 0, pagat_pos = -1;
    for (int pos = 0; pos < n; pos++) {
        int card = cards[pos];
        if (card == pagat) { has_pagat = 1; pagat_pos = pos; }
        else if (card == mond) has_mond = 1;
        else if (card == skis) has_skis = 1;
        if (pos == 0) continue;
        int cs = card_suit[card];
        if (trumps && cs == tarok_suit) {
            if (card_suit[best_card] != tarok_suit || card > best_card) { best = pos; best_card = card; }
        } else if (cs == led_suit && card_suit[best_card] == led_suit && card > best_card) {
            best = pos; best_card = card;
        }
    }
    if (emperor != EMPEROR_NEVER && has_pagat && has_mond && has_skis && (emperor == EMPEROR_ALWAYS || led_suit == tarok_suit))
        return pagat_pos;
    return best;
}

static int read_trick(PyObject *trick, int *cards, int max) {
    /* A trick's cards (a tuple or list of card numbers or codes) into ``cards``; its length, or -1 when it is
     * not one. */
    Py_ssize_t len = seq_len(trick);
    if (len < 0 || len > max) return -1;
    for (Py_ssize_t i = 0; i < len; i++)
        if ((cards[i] = card_of(seq_at(trick, i))) < 0) return -1;
    return (int)len;
}

static PyObject *u64(uint64_t v) { return PyLong_FromUnsignedLongLong(v); }

static int read_mask(PyObject *tables, const char *name, uint64_t *out) {
    /* ``tables[name]`` as a 64-bit mask; -1 with an exception when it is missing or not one. */
    PyObject *v = PyMapping_GetItemString(tables, name);
    if (!v) return -1;
    *out = PyLong_AsUnsignedLongLong(v);
    Py_DECREF(v);
    return PyErr_Occurred() ? -1 : 0;
}

static int read_int(PyObject *tables, const char *name, int *out) {
    PyObject *v = PyMapping_GetItemString(tables, name);
    if (!v) return -1;
    long value = PyLong_AsLong(v);
    Py_DECREF(v);
    if (value == -1 && PyErr_Occurred()) return -1;
    *out = (int)value;
    return 0;
}

static int read_table(PyObject *tables, const char *name, Py_ssize_t size, uint64_t *out) {
    /* ``tables[name]``, a sequence of ``size`` whole numbers, into ``out``. */
    PyObject *seq = sized_table(tables, name, size);
    if (!seq) return -1;
    for (Py_ssize_t i = 0; i < size; i++) out[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
    Py_DECREF(seq);
    return PyErr_Occurred() ? -1 : 0;
}

/* init(tables): the card tables, read by the names tarock.cards gives them (``vars(tarock.cards)``). */
static PyObject *py_init(PyObject *self, PyObject *tables) {
    uint64_t suits[N_CARDS], points[N_CARDS], aboves[N_CARDS], suit_masks[5], tm, pm, trula, kings;
    int p, m, s, t;
    if (read_table(tables, "CARD_SUIT", N_CARDS, suits) < 0 || read_table(tables, "CARD_POINTS", N_CARDS, points) < 0
        || read_table(tables, "ABOVE", N_CARDS, aboves) < 0 || read_table(tables, "SUIT_MASKS", 5, suit_masks) < 0
        || read_mask(tables, "TAROK_MASK", &tm) < 0 || read_mask(tables, "PLAIN_MASK", &pm) < 0
        || read_mask(tables, "TRULA_MASK", &trula) < 0 || read_mask(tables, "KINGS_MASK", &kings) < 0
        || read_int(tables, "PAGAT", &p) < 0 || read_int(tables, "MOND", &m) < 0 || read_int(tables, "SKIS", &s) < 0
        || read_int(tables, "TAROK", &t) < 0)
        return NULL;
    PyObject *code_tuple = PyMapping_GetItemString(tables, "CODES");
    if (!code_tuple) return NULL;
    if (!PyTuple_Check(code_tuple) || PyTuple_GET_SIZE(code_tuple) != N_CARDS) {
        Py_DECREF(code_tuple);
        PyErr_SetString(PyExc_ValueError, "init: CODES must be a tuple of 54 card codes");
        return NULL;
    }
    Py_XSETREF(codes, code_tuple);
    key_leader = PyUnicode_InternFromString("leader");
    key_players = PyUnicode_InternFromString("players");
    key_cards = PyUnicode_InternFromString("cards");
    key_winner = PyUnicode_InternFromString("winner");
    key_points = PyUnicode_InternFromString("points");
    if (!key_leader || !key_players || !key_cards || !key_winner || !key_points) return NULL;
    for (int c = 0; c < N_CARDS; c++) {
        card_suit[c] = (uint8_t)suits[c];
        card_points[c] = (uint8_t)points[c];
        above[c] = aboves[c];
    }
    for (int i = 0; i < 5; i++) suit_mask[i] = suit_masks[i];
    memset(code_key, 0, sizeof code_key);
    memset(code_object, 0, sizeof code_object);
    for (int c = 0; c < N_CARDS; c++) {
        uint32_t key = pack_code(PyTuple_GET_ITEM(code_tuple, c)), slot = code_hash(key);
        if (!key) {
            PyErr_SetString(PyExc_ValueError, "card codes must be 2 or 3 ASCII characters");
            return NULL;
        }
        while (code_key[slot]) slot = (slot + 1) % CODE_SLOTS;
        code_key[slot] = key;
        code_card[slot] = (int8_t)c;
        PyObject *code = PyTuple_GET_ITEM(code_tuple, c);
        for (slot = object_slot(code); code_object[slot]; slot = (slot + 1) % CODE_SLOTS) {}
        code_object[slot] = code;
        code_object_card[slot] = (int8_t)c;
    }
    tarok_mask = tm;
    plain_mask = pm;
    trula_mask = trula;
    kings_mask = kings;
    pagat = p;
    mond = m;
    skis = s;
    tarok_suit = t;
    ready = 1;
    Py_RETURN_NONE;
}

static int same_text(PyObject *a, PyObject *b) {
    /* Whether two str objects hold the same text (compared as stored: same kind, length and bytes). */
    if (!PyUnicode_Check(a) || !PyUnicode_Check(b)) return PyObject_RichCompareBool(a, b, Py_EQ) == 1;
    Py_ssize_t len = PyUnicode_GET_LENGTH(a);
    int kind = PyUnicode_KIND(a);
    return len == PyUnicode_GET_LENGTH(b) && kind == PyUnicode_KIND(b)
           && memcmp(PyUnicode_DATA(a), PyUnicode_DATA(b), (size_t)len * kind) == 0;
}

static int seat_of(PyObject *name, PyObject *players) {
    /* The index of ``name`` in the ``players`` tuple, or -1. */
    Py_ssize_t np = PyTuple_GET_SIZE(players);
    for (Py_ssize_t i = 0; i < np; i++) if (PyTuple_GET_ITEM(players, i) == name) return (int)i;
    for (Py_ssize_t i = 0; i < np; i++) if (same_text(PyTuple_GET_ITEM(players, i), name)) return (int)i;
    PyErr_Clear();
    return -1;
}

/* seats(tricks, n, leader, trumps, emperor, names=None, players=None) -> (seats, winners): who played each
 * card -- the player the record names (``names``: per trick a tuple of names or None; ``players``: the
 * seats' names), else turn order from the last trick's winner -- and each complete trick's winner.
 * tarock.engine._seats without table events; None when a named player is not at the table. */
static PyObject *py_seats(PyObject *self, PyObject *args) {
    PyObject *tricks, *names = Py_None, *players = Py_None;
    int n, leader, trumps, emperor;
    if (!PyArg_ParseTuple(args, "O!iiii|OO", &PyTuple_Type, &tricks, &n, &leader, &trumps, &emperor, &names,
                          &players))
        return NULL;
    if (n < 1 || n > MAX_SEATS) Py_RETURN_NONE;
    Py_ssize_t nt = PyTuple_GET_SIZE(tricks);
    int named = names != Py_None;
    if (named && (!PyTuple_Check(names) || PyTuple_GET_SIZE(names) != nt || !PyTuple_Check(players)))
        Py_RETURN_NONE;
    PyObject *seats = PyList_New(nt);
    PyObject *winners = PyList_New(0);
    if (!seats || !winners) goto fail;
    int cards[MAX_SEATS], who_seat[MAX_SEATS];
    for (Py_ssize_t t = 0; t < nt; t++) {
        int len = read_trick(PyTuple_GET_ITEM(tricks, t), cards, MAX_SEATS);
        if (len < 0) goto none;
        PyObject *trick_names = named ? PyTuple_GET_ITEM(names, t) : Py_None;
        if (trick_names != Py_None) {
            if (!PyTuple_Check(trick_names) || PyTuple_GET_SIZE(trick_names) != len) goto none;
            for (int i = 0; i < len; i++) {
                who_seat[i] = seat_of(PyTuple_GET_ITEM(trick_names, i), players);
                if (who_seat[i] < 0) goto none;
            }
        } else {
            for (int i = 0; i < len; i++) who_seat[i] = (leader + i) % n;
        }
        PyObject *who = PyTuple_New(len);
        if (!who) goto fail;
        for (int i = 0; i < len; i++) PyTuple_SET_ITEM(who, i, PyLong_FromLong(who_seat[i]));
        PyList_SET_ITEM(seats, t, who);
        if (len == n) {
            leader = who_seat[trick_winner(cards, len, trumps, emperor)];
            PyObject *w = PyLong_FromLong(leader);
            if (!w || PyList_Append(winners, w) < 0) { Py_XDECREF(w); goto fail; }
            Py_DECREF(w);
        }
    }
    return Py_BuildValue("(NN)", seats, winners);
none:
    Py_DECREF(seats);
    Py_DECREF(winners);
    Py_RETURN_NONE;
fail:
    Py_XDECREF(seats);
    Py_XDECREF(winners);
    return NULL;
}

/* played_by(tricks, seats, seat) -> mask of the cards the record shows ``seat`` playing. */
static PyObject *py_played_by(PyObject *self, PyObject *args) {
    PyObject *tricks, *seats;
    int seat;
    if (!PyArg_ParseTuple(args, "O!O!i", &PyTuple_Type, &tricks, &PyList_Type, &seats, &seat)) return NULL;
    Py_ssize_t nt = PyTuple_GET_SIZE(tricks);
    if (PyList_GET_SIZE(seats) < nt) nt = PyList_GET_SIZE(seats);
    uint64_t mask = 0;
    int cards[MAX_SEATS];
    for (Py_ssize_t t = 0; t < nt; t++) {
        int len = read_trick(PyTuple_GET_ITEM(tricks, t), cards, MAX_SEATS);
        PyObject *who = PyList_GET_ITEM(seats, t);
        if (len < 0 || !PySequence_Check(who)) Py_RETURN_NONE;
        Py_ssize_t m = PySequence_Size(who);
        for (Py_ssize_t i = 0; i < len && i < m; i++) {
            PyObject *s = PySequence_GetItem(who, i);
            long v = s ? PyLong_AsLong(s) : -1;
            Py_XDECREF(s);
            if (v == seat) mask |= 1ULL << cards[i];
        }
    }
    if (PyErr_Occurred()) return NULL;
    return u64(mask);
}


static int counted(uint64_t m) {
    /* tarock.cards.counted_points: round(raw - 2/3 n), in whole points. */
    long raw = 0, count = 0;
    while (m) { raw += card_points[lowest(m)]; count++; m &= m - 1; }
    return (int)((3 * raw - 2 * count + 1) / 3);
}

static int read_seats(PyObject *who, int *seats, int len) {
    if (!PyTuple_Check(who) || PyTuple_GET_SIZE(who) != len) return -1;
    for (int i = 0; i < len; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(who, i));
        if (v < 0 || v >= MAX_SEATS) { PyErr_Clear(); return -1; }
        seats[i] = (int)v;
    }
    return 0;
}


/* -- the fast lane: a whole clean Slovenian deal in one call ------------------------------------------------ */

static uint64_t cards_mask(PyObject *cards, int *count) {
    /* The mask of a tuple or list of cards (numbers or codes; ``count``: its length), or ~0 when it is not one. */
    Py_ssize_t len = seq_len(cards);
    if (len < 0 || len > N_CARDS) return ~0ULL;
    uint64_t m = 0;
    *count = (int)len;
    for (Py_ssize_t i = 0; i < len; i++) {
        int c = card_of(seq_at(cards, i));
        if (c < 0) return ~0ULL;
        m |= 1ULL << c;
    }
    return m;
}

static int named_play(PyObject *play, PyObject *players, int *card) {
    /* A play written "Name:CODE" (the record's other form of a play): the seat of the player named before the
     * first ':', who must be at the table, and the card coded after it; -1 when it is not such a play. */
    if (!PyUnicode_Check(play)) return -1;
    Py_ssize_t len = PyUnicode_GET_LENGTH(play), colon = PyUnicode_FindChar(play, ':', 0, len, 1);
    if (colon < 1 || len - colon - 1 < 2 || len - colon - 1 > 3) { PyErr_Clear(); return -1; }
    int kind = PyUnicode_KIND(play);
    const void *data = PyUnicode_DATA(play);
    uint32_t key = 0;
    for (Py_ssize_t i = colon + 1, shift = 0; i < len; i++, shift += 8) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c > 127) return -1;
        key |= (uint32_t)c << shift;
    }
    *card = -1;
    for (uint32_t slot = code_hash(key); code_key[slot]; slot = (slot + 1) % CODE_SLOTS)
        if (code_key[slot] == key) { *card = code_card[slot]; break; }
    if (*card < 0) return -1;
    for (Py_ssize_t s = 0; s < PyTuple_GET_SIZE(players); s++) {
        PyObject *name = PyTuple_GET_ITEM(players, s);
        if (PyUnicode_GET_LENGTH(name) == colon && PyUnicode_KIND(name) == kind
            && memcmp(PyUnicode_DATA(name), data, (size_t)colon * kind) == 0)
            return (int)s;
    }
    return -1;
}

static int load_tricks(Tricks *tr, PyObject *tricks, int n, PyObject *names, PyObject *players, int leader,
                       int trumps, int emperor) {
    /* Every recorded trick complete, its seats and winner; -1 when a trick is short, mixes named and unnamed
     * plays, or names a player not at the table.  The seats: those ``names`` gives (per trick a tuple of
     * names, or None), else those the plays name ("Name:CODE", tarock.formats.records), else in turn from the last
     * trick's winner. */
    tr->n = n;
    tr->nt = (int)seq_len(tricks);
    if (tr->nt < 1 || tr->nt > MAX_TRICKS) return -1;
    if (names != Py_None && (!PyTuple_Check(names) || PyTuple_GET_SIZE(names) != tr->nt)) return -1;
    for (int t = 0; t < tr->nt; t++) {
        PyObject *trick = seq_at(tricks, t);
        if (seq_len(trick) != n) return -1;
        int named = 0;
        for (int i = 0; i < n; i++) {
            PyObject *play = seq_at(trick, i);
            int card = card_of(play), seat = -1;
            if (card < 0 && (names != Py_None || (seat = named_play(play, players, &card)) < 0)) return -1;
            if (i > 0 && named != (seat >= 0)) return -1;  /* a trick of named and unnamed plays */
            named = seat >= 0;
            tr->cards[t][i] = card;
            tr->who[t][i] = seat;
        }
        PyObject *trick_names = names == Py_None ? Py_None : PyTuple_GET_ITEM(names, t);
        for (int i = 0; i < n; i++) {
            if (named) continue;
            if (trick_names == Py_None) tr->who[t][i] = (leader + i) % n;
            else if (!PyTuple_Check(trick_names) || PyTuple_GET_SIZE(trick_names) != n
                     || (tr->who[t][i] = seat_of(PyTuple_GET_ITEM(trick_names, i), players)) < 0)
                return -1;
        }
        leader = tr->who[t][trick_winner(tr->cards[t], n, trumps, emperor)];
    }
    return 0;
}

static int play_tricks(Tricks *tr, uint64_t *hands, int leader, const Rules *r) {
    /* Play every trick from ``hands`` (emptied as played): each card in turn, held and legal; winners and
     * piles.  -1 at the first card that is not. */
    const uint64_t trula = (1ULL << pagat) | (1ULL << mond) | (1ULL << skis);
    int n = tr->n, turn = leader;
    for (int s = 0; s < n; s++) tr->piles[s] = 0;
    for (int t = 0; t < tr->nt; t++) {
        const int *cards = tr->cards[t];
        uint64_t trick = 0;
        int led = -1, win_card = -1, win_pos = 0;
        for (int i = 0; i < n; i++) {
            int seat = tr->who[t][i], card = cards[i];
            uint64_t bit = 1ULL << card;
            if (seat != turn || !(hands[seat] & bit) || !(legal_mask(hands[seat], led, win_card, trick, r) & bit))
                return -1;
            hands[seat] ^= bit;
            if (led < 0) { led = card; win_card = card; win_pos = 0; }
            else {
                int cs = card_suit[card];
                if (r->trumps && cs == tarok_suit) {
                    if (card_suit[win_card] != tarok_suit || card > win_card) { win_card = card; win_pos = i; }
                } else if (cs == card_suit[led] && card_suit[win_card] == cs && card > win_card) {
                    win_card = card; win_pos = i;
                }
            }
            trick |= bit;
            turn = (seat + 1) % n;
        }
        if ((trick & trula) == trula && r->emperor != EMPEROR_NEVER && (r->emperor == EMPEROR_ALWAYS || card_suit[cards[0]] == tarok_suit))
            for (int i = 0; i < n; i++) if (cards[i] == pagat) win_pos = i;
        turn = tr->winners[t] = tr->who[t][win_pos];
        tr->piles[turn] |= trick;
    }
    return 0;
}

/* -- the rules a deal is played by, read by name ------------------------------------------------------------ */

typedef struct {
    const char *name;
    Py_ssize_t offset;
    int wide;  /* a 64-bit mask (else an int: a switch, a count or a mode) */
} Field;

/* Each field's name is its member's own: the mapping ``lane_plan`` and ``rules`` read holds the same names
 * (tarock/accel/projection.py builds it from the reference's objects by these names). */
#define FIELD(type, member, wide) {#member, offsetof(type, member), wide}

static const Field play_fields[] = {
    FIELD(Rules, trumps, 0), FIELD(Rules, void_tarok, 0), FIELD(Rules, negative, 0), FIELD(Rules, pagat_last, 0),
    FIELD(Rules, pagat_scope, 1), FIELD(Rules, pagat_emperor, 0), FIELD(Rules, tarok_lead_last, 0),
    FIELD(Rules, force_pagat, 0), FIELD(Rules, emperor, 0),
};
static const Field outcome_fields[] = {
    FIELD(OutcomeRules, is_klop, 0), FIELD(OutcomeRules, talon_group, 0), FIELD(OutcomeRules, is_beggar, 0),
    FIELD(OutcomeRules, is_valat, 0), FIELD(OutcomeRules, normal, 0), FIELD(OutcomeRules, mondfang_applies, 0),
    FIELD(OutcomeRules, mondfang_any_side, 0),
};
#define N_PLAY_FIELDS (sizeof play_fields / sizeof play_fields[0])
#define N_OUTCOME_FIELDS (sizeof outcome_fields / sizeof outcome_fields[0])

static int read_fields(PyObject *mapping, const Field *fields, size_t count, char *base) {
    /* Each field from ``mapping[field.name]`` (a whole number: a bool, an int, a mask); -1 with an exception
     * (KeyError naming it, TypeError, OverflowError) for a field missing or of another kind. */
    for (size_t i = 0; i < count; i++) {
        PyObject *v = PyMapping_GetItemString(mapping, fields[i].name);
        if (!v) return -1;
        if (!PyLong_Check(v)) {
            PyErr_Format(PyExc_TypeError, "the kernel's rule %s must be a whole number, not %R", fields[i].name, v);
            Py_DECREF(v);
            return -1;
        }
        if (fields[i].wide) {
            *(uint64_t *)(base + fields[i].offset) = PyLong_AsUnsignedLongLong(v);
        } else {
            long value = PyLong_AsLong(v);
            if (!PyErr_Occurred() && (value < INT32_MIN || value > INT32_MAX))
                PyErr_Format(PyExc_OverflowError, "the kernel's rule %s is out of range", fields[i].name);
            *(int *)(base + fields[i].offset) = (int)value;
        }
        Py_DECREF(v);
        if (PyErr_Occurred()) return -1;
    }
    return 0;
}

static PyObject *field_names(const Field *fields, size_t count) {
    PyObject *names = PyTuple_New((Py_ssize_t)count);
    if (!names) return NULL;
    for (size_t i = 0; i < count; i++) {
        PyObject *name = PyUnicode_InternFromString(fields[i].name);
        if (!name) { Py_DECREF(names); return NULL; }
        PyTuple_SET_ITEM(names, (Py_ssize_t)i, name);
    }
    return names;
}

static void free_capsule(PyObject *capsule) { PyMem_Free(PyCapsule_GetPointer(capsule, PyCapsule_GetName(capsule))); }

static PyObject *new_capsule(size_t size, const char *name, void **out) {
    void *p = PyMem_Calloc(1, size);
    if (!p) return PyErr_NoMemory();
    PyObject *capsule = PyCapsule_New(p, name, free_capsule);
    if (!capsule) { PyMem_Free(p); return NULL; }
    *out = p;
    return capsule;
}

/* rules(mapping) -> the play rules ``play`` takes: every name of PLAY_RULE_FIELDS read from ``mapping``. */
static PyObject *py_rules(PyObject *self, PyObject *mapping) {
    Rules *r = NULL;
    PyObject *capsule = new_capsule(sizeof(Rules), RULES_CAPSULE, (void **)&r);
    if (capsule && read_fields(mapping, play_fields, N_PLAY_FIELDS, (char *)r) < 0) Py_CLEAR(capsule);
    return capsule;
}

/* lane_plan(mapping) -> the plan ``lane`` takes: every name of PLAY_RULE_FIELDS and OUTCOME_RULE_FIELDS read
 * from ``mapping``. */
static PyObject *py_lane_plan(PyObject *self, PyObject *mapping) {
    LanePlan *plan = NULL;
    PyObject *capsule = new_capsule(sizeof(LanePlan), LANE_PLAN_CAPSULE, (void **)&plan);
    if (capsule && (read_fields(mapping, play_fields, N_PLAY_FIELDS, (char *)&plan->r) < 0
                    || read_fields(mapping, outcome_fields, N_OUTCOME_FIELDS, (char *)&plan->o) < 0))
        Py_CLEAR(capsule);
    return capsule;
}

static const LanePlan *lane_plan_of(PyObject *capsule) {
    return (const LanePlan *)PyCapsule_GetPointer(capsule, LANE_PLAN_CAPSULE);
}

/* play(hands, tricks, seats, leader, total_tricks, rules)
 *   -> (winners, piles) when every recorded trick (at least one, at most ``total_tricks``) is complete and
 *      was played in turn from the hands with legal cards; None otherwise (the reference engine then
 *      replays the deal).  ``rules``: a ``rules`` capsule.  Whether a record may stop before ``total_tricks``
 *      is the caller's question. */
static PyObject *py_play(PyObject *self, PyObject *args) {
    PyObject *hands_obj, *tricks, *seats, *rules;
    int leader, total;
    if (!PyArg_ParseTuple(args, "O!O!O!iiO", &PyList_Type, &hands_obj, &PyTuple_Type, &tricks,
                          &PyList_Type, &seats, &leader, &total, &rules))
        return NULL;
    const Rules *r = (const Rules *)PyCapsule_GetPointer(rules, RULES_CAPSULE);
    if (!r) return NULL;
    if (!ready) Py_RETURN_NONE;
    int n = (int)PyList_GET_SIZE(hands_obj), played = (int)PyTuple_GET_SIZE(tricks);
    if (n < 1 || n > MAX_SEATS || played < 1 || played > total || total > MAX_TRICKS
        || PyList_GET_SIZE(seats) != played)
        Py_RETURN_NONE;
    uint64_t hands[MAX_SEATS];
    for (int s = 0; s < n; s++) {
        hands[s] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(hands_obj, s));
        if (PyErr_Occurred()) { PyErr_Clear(); Py_RETURN_NONE; }
    }
    Tricks tr;
    tr.n = n;
    tr.nt = played;
    for (int t = 0; t < played; t++)
        if (read_trick(PyTuple_GET_ITEM(tricks, t), tr.cards[t], MAX_SEATS) != n
            || read_seats(PyList_GET_ITEM(seats, t), tr.who[t], n) < 0)
            Py_RETURN_NONE;
    if (play_tricks(&tr, hands, leader, r) < 0) Py_RETURN_NONE;
    if (played == total)
        for (int s = 0; s < n; s++) if (hands[s]) Py_RETURN_NONE;
    PyObject *w = PyList_New(played), *p = PyList_New(n);
    if (!w || !p) { Py_XDECREF(w); Py_XDECREF(p); return NULL; }
    for (int t = 0; t < played; t++) PyList_SET_ITEM(w, t, PyLong_FromLong(tr.winners[t]));
    for (int s = 0; s < n; s++) PyList_SET_ITEM(p, s, u64(tr.piles[s]));
    return Py_BuildValue("(NN)", w, p);
}

/* -- the facts: what scoring needs of a deal, coded by the names exported below ---------------------------- */

/* A side's code: exported as ``SIDES`` (each code's name, as tarock.facts names the side; None for none). */
enum { SIDE_NONE, SIDE_DECLARER, SIDE_OPPONENTS, N_SIDES };
static const char *side_names[N_SIDES] = {NULL, "declarer", "opponents"};

/* The code of the Pagat in a full deal's last trick: 0 when it is not there, else by the side that played it
 * and whether it won the trick; exported as ``PAGAT_LAST`` (per code None or (side's name, won)). */
#define N_PAGAT_LAST 5
static inline int pagat_last_code(int side, int won) { return 1 + 2 * (side - SIDE_DECLARER) + (won != 0); }

/* The facts tuples' fields in order (kernel.h's FACT_*): exported as ``DECLARER_FACTS`` and ``KLOP_FACTS``.
 * Those named like a field of tarock.facts.DealFacts hold it (a side or the Pagat as its code, Mondfang as
 * the payers' seats); the others are the raw figures it is worked out from. */
static const char *declarer_fact_names[N_DECLARER_FACTS] = {
    [FACT_DECLARER_POINTS] = "declarer_points", [FACT_OPPONENTS_POINTS] = "opponents_points",
    [FACT_VALAT_SIDE] = "valat_side", [FACT_TRULA_SIDE] = "trula_side", [FACT_KINGS_SIDE] = "kings_side",
    [FACT_PAGAT_LAST] = "pagat_last", [FACT_KING_LAST] = "king_last", [FACT_MONDFANG] = "mondfang",
    [FACT_LOST_TRICK] = "lost_trick", [FACT_DECIDED] = "decided",
};
static const char *klop_fact_names[N_KLOP_FACTS] = {
    [FACT_KLOP_POINTS] = "klop_points", [FACT_KLOP_TRICKS] = "klop_tricks",
};

static int holder(uint64_t target, uint64_t ours, uint64_t theirs) {
    if ((ours & target) == target) return SIDE_DECLARER;
    if ((theirs & target) == target) return SIDE_OPPONENTS;
    return SIDE_NONE;
}


static PyObject *facts_tuple(const long *values, int count, PyObject *steal_at, int at) {
    /* A facts tuple of whole numbers, but for the object at ``at`` (stolen; -1: none). */
    PyObject *out = PyTuple_New(count);
    if (!out) { Py_XDECREF(steal_at); return NULL; }
    for (int i = 0; i < count; i++) {
        PyObject *v = i == at ? steal_at : PyLong_FromLong(values[i]);
        if (!v) { Py_DECREF(out); return NULL; }
        PyTuple_SET_ITEM(out, i, v);
    }
    return out;
}

static PyObject *klop_facts(const Tricks *tr, const int *talon) {
    /* KLOP_FACTS: (points per seat, tricks per seat): the talon's 6 cards go one by one to the first tricks'
     * winners. */
    uint64_t piles[MAX_SEATS];
    long taken[MAX_SEATS] = {0};
    int n = tr->n;
    for (int s = 0; s < n; s++) piles[s] = tr->piles[s];
    for (int t = 0; t < tr->nt; t++) {
        int w = tr->winners[t];
        taken[w]++;
        if (t < 6) piles[w] |= 1ULL << talon[t];
    }
    PyObject *points = PyTuple_New(n), *tricks = PyTuple_New(n);
    if (!points || !tricks) { Py_XDECREF(points); Py_XDECREF(tricks); return NULL; }
    for (int s = 0; s < n; s++) {
        PyTuple_SET_ITEM(points, s, PyLong_FromLong(counted(piles[s])));
        PyTuple_SET_ITEM(tricks, s, PyLong_FromLong(taken[s]));
    }
    PyObject *out = PyTuple_New(N_KLOP_FACTS);
    if (!out) { Py_DECREF(points); Py_DECREF(tricks); return NULL; }
    PyTuple_SET_ITEM(out, FACT_KLOP_POINTS, points);
    PyTuple_SET_ITEM(out, FACT_KLOP_TRICKS, tricks);
    return out;
}

static PyObject *declarer_facts(const Tricks *tr, const OutcomeRules *o, int per_hand, int declarer, int partner,
                                int called_king, int king_in_talon, uint64_t pick, uint64_t stash,
                                uint64_t talon_mask) {
    /* DECLARER_FACTS: tarock.rules.slovenian.replay.outcome for a contract with a declarer, played without a
     * fault, table events or claim: the two sides' card points, the valat, trula and kings sides, the Pagat and
     * the called king in the last trick, the Mondfang payers, whether the declarer's side lost a trick and the
     * trick that decided a Berač or valat (0: none). */
    int n = tr->n, nt = tr->nt, ours[MAX_SEATS];
    uint64_t dpile = stash, opile = 0;
    for (int s = 0; s < n; s++) {
        ours[s] = s == declarer || s == partner;
        if (ours[s]) dpile |= tr->piles[s]; else opile |= tr->piles[s];
    }
    uint64_t unchosen = talon_mask & ~pick;
    int brought_home = 0;
    if (king_in_talon && called_king >= 0 && (pick >> called_king & 1))
        for (int t = 0; t < nt; t++)
            for (int i = 0; i < n; i++)
                if (tr->cards[t][i] == called_king && tr->winners[t] == declarer && tr->who[t][i] == declarer)
                    brought_home = 1;
    if (o->talon_group && brought_home) dpile |= unchosen; else opile |= unchosen;
    int lost = 0, won_any = 0, decided = 0;
    for (int t = 0; t < nt; t++) {
        int w = tr->winners[t];
        if (ours[w]) won_any = 1; else lost = 1;
        if (!decided && ((o->is_beggar && w == declarer) || (o->is_valat && w != declarer))) decided = t + 1;
    }
    int full = nt == per_hand, valat_side = SIDE_NONE, pagat_last = 0, king_last = SIDE_NONE;
    if (o->is_valat) valat_side = lost ? SIDE_NONE : SIDE_DECLARER;
    else if (full) valat_side = !lost ? SIDE_DECLARER : (!won_any ? SIDE_OPPONENTS : SIDE_NONE);
    if (full) {
        int t = nt - 1;
        for (int i = 0; i < n; i++) {
            int seat = tr->who[t][i];
            if (tr->cards[t][i] == pagat)
                pagat_last = pagat_last_code(ours[seat] ? SIDE_DECLARER : SIDE_OPPONENTS, seat == tr->winners[t]);
            if (tr->cards[t][i] == called_king) king_last = ours[tr->winners[t]] ? SIDE_DECLARER : SIDE_OPPONENTS;
        }
    }
    int payers[2], n_payers = 0;
    if (o->mondfang_applies) {
        for (int t = 0; t < nt; t++) {
            int at = -1, w = tr->winners[t], win_card = -1;
            for (int i = 0; i < n; i++) {
                if (tr->cards[t][i] == mond) at = i;
                if (tr->who[t][i] == w) win_card = tr->cards[t][i];
            }
            if (at < 0) continue;
            int owner = tr->who[t][at];
            if ((win_card == skis || win_card == pagat) && (o->mondfang_any_side || ours[w] != ours[owner]))
                payers[n_payers++] = owner;
            break;
        }
        if (o->normal && (unchosen >> mond & 1) && !brought_home) payers[n_payers++] = declarer;
    }
    PyObject *mondfang = PyTuple_New(n_payers);
    if (!mondfang) return NULL;
    for (int i = 0; i < n_payers; i++) PyTuple_SET_ITEM(mondfang, i, PyLong_FromLong(payers[i]));
    long values[N_DECLARER_FACTS] = {
        [FACT_DECLARER_POINTS] = counted(dpile), [FACT_OPPONENTS_POINTS] = counted(opile),
        [FACT_VALAT_SIDE] = valat_side, [FACT_TRULA_SIDE] = holder(trula_mask, dpile, opile),
        [FACT_KINGS_SIDE] = holder(kings_mask, dpile, opile), [FACT_PAGAT_LAST] = pagat_last,
        [FACT_KING_LAST] = king_last, [FACT_LOST_TRICK] = lost, [FACT_DECIDED] = decided,
    };
    return facts_tuple(values, N_DECLARER_FACTS, mondfang, FACT_MONDFANG);
}

/* -- the fast lane: a whole clean Slovenian deal in one call ------------------------------------------------ */

static int run_lane(const LaneArgs *a, LaneResult *res) {
    /* 1 and ``res`` filled (its ``facts`` a new reference) for a clean deal, 0 to decline, -1 on an error.
     * ``lane`` here and ingest's bulk path (ingest/_bulkrows.c, through KERNEL_API) call it. */
    const Rules *r = &a->plan->r;
    const OutcomeRules *o = &a->plan->o;
    int per_hand = a->per_hand, declarer = a->declarer, leader = a->leader, group = o->talon_group;
    int by_name = PyDict_Check(a->hands), count, talon[6];
    int n = (int)(by_name ? PyTuple_GET_SIZE(a->players) : seq_len(a->hands));
    if (!ready || n < 1 || n > MAX_SEATS || seq_len(a->talon) != 6 || declarer >= n) return 0;
    /* the deal: a hand without a tarok is a misdeal the reference warns of (tarock.engine._check_misdeal) */
    PyObject *hand_of[MAX_SEATS];
    for (int s = 0; s < n; s++)
        if (!(hand_of[s] = by_name ? PyDict_GetItem(a->hands, PyTuple_GET_ITEM(a->players, s)) : seq_at(a->hands, s)))
            return 0;
    uint64_t *hands = res->hands, seen = 0, talon_mask = 0;
    for (int s = 0; s <= n; s++) {
        uint64_t m = cards_mask(s < n ? hand_of[s] : a->talon, &count);
        if (m == ~0ULL || count != (s < n ? per_hand : 6) || __builtin_popcountll(m) != count || (m & seen)
            || (s < n && !(m & tarok_mask)))
            return 0;
        seen |= m;
        if (s < n) hands[s] = m; else talon_mask = m;
    }
    for (int i = 0; i < 6; i++) talon[i] = card_of(seq_at(a->talon, i));
    /* the king */
    int called_king = a->called == Py_None ? -1 : card_of(a->called);
    int partner = -1, king_in_talon = 0;
    if (a->called != Py_None && called_king < 0) return 0;
    if (!a->calls_king) {
        if (called_king >= 0) return 0;
    } else {
        if (called_king < 0 || !(kings_mask >> called_king & 1)) return 0;
        king_in_talon = 1;
        for (int s = 0; s < n; s++)
            if (hands[s] >> called_king & 1) { partner = s == declarer ? -1 : s; king_in_talon = 0; }
    }
    /* the tricks and who played them */
    Tricks *tr = &res->tr;
    if (load_tricks(tr, a->tricks, n, a->names, a->players, leader, r->trumps, r->emperor) < 0
        || tr->nt > per_hand || (tr->nt < per_hand && !(o->is_beggar || o->is_valat)))
        return 0;
    /* the talon exchange */
    uint64_t play[MAX_SEATS], pick = 0, stash = 0;
    for (int s = 0; s < n; s++) play[s] = hands[s];
    if (group && declarer >= 0) {
        uint64_t played = 0, hand = hands[declarer];
        for (int t = 0; t < tr->nt; t++)
            for (int i = 0; i < n; i++) if (tr->who[t][i] == declarer) played |= 1ULL << tr->cards[t][i];
        if (a->pick != Py_None) {
            pick = cards_mask(a->pick, &count);
            if (pick == ~0ULL || count != __builtin_popcountll(pick)) return 0;
        } else {
            uint64_t given = 0;
            if (a->stash != Py_None && (given = cards_mask(a->stash, &count)) == ~0ULL) return 0;
            pick = (played | given) & ~hand & talon_mask;
        }
        int is_group = 0;
        for (int i = 0; i + group <= 6; i += group) {
            uint64_t g = 0;
            for (int j = i; j < i + group; j++) g |= 1ULL << talon[j];
            if (g == pick) is_group = 1;
        }
        if ((pick & ~talon_mask) || !is_group) return 0;
        uint64_t after = hand | pick;
        if (a->stash != Py_None) {
            stash = cards_mask(a->stash, &count);
            if (stash == ~0ULL) return 0;
        } else {
            stash = after & ~played;
            count = __builtin_popcountll(stash);
        }
        if (count != __builtin_popcountll(pick) || __builtin_popcountll(stash) != count || (stash & ~after)
            || (stash & (kings_mask | trula_mask))
            || ((stash & tarok_mask) && (after & plain_mask & ~kings_mask & ~stash)))
            return 0;
        play[declarer] = after & ~stash;
    } else if ((a->pick != Py_None && PyObject_IsTrue(a->pick)) || (a->stash != Py_None && PyObject_IsTrue(a->stash))) {
        return 0;
    }
    res->declarer_hand = declarer >= 0 ? play[declarer] : 0;
    /* the play */
    if (play_tricks(tr, play, leader, r) < 0) return 0;
    if (tr->nt == per_hand)
        for (int s = 0; s < n; s++) if (play[s]) return 0;
    int decided = 0;
    PyObject *facts;
    if (o->is_klop) {
        facts = klop_facts(tr, talon);
    } else {
        facts = declarer_facts(tr, o, per_hand, declarer, partner, called_king, king_in_talon, pick, stash,
                               talon_mask);
        if (facts) decided = (int)PyLong_AsLong(PyTuple_GET_ITEM(facts, FACT_DECIDED));
    }
    if (!facts) return -1;
    if (!o->is_klop && tr->nt < per_hand && decided == 0) {
        Py_DECREF(facts);
        return 0;  /* the record stops before the contract was decided */
    }
    res->partner = partner;
    res->king_in_talon = king_in_talon;
    res->pick = pick;
    res->stash = stash;
    res->facts = facts;
    return 1;
}

/* lane(hands, talon, tricks, names, players, per_hand, declarer, leader, calls_king, called_king, talon_pick,
 *      stash, plan)
 *   -> (hands, seats, winners, partner, king_in_talon, pick, stash, declarer's hand to play, facts) or None.
 * tarock.accel.lane's whole deal: dealt without a fault (every hand ``per_hand`` cards, a tarok among them,
 * the talon 6, no card twice), a valid king call, a legal talon exchange, every trick complete and played in
 * turn from the hands with legal cards; then the facts (``klop_facts`` / ``declarer_facts``).  None at the
 * first sign of anything else: the reference engine then replays the deal and says what is wrong.
 * Cards are numbers or canonical codes, in tuples or lists; ``hands`` a sequence in seat order or a dict by
 * player name.  ``declarer`` is -1 for none; ``called_king``, ``talon_pick`` and ``stash`` None when not
 * recorded; ``plan`` a ``lane_plan`` capsule. */
static PyObject *py_lane(PyObject *self, PyObject *args) {
    LaneArgs a;
    LaneResult res;
    PyObject *plan;
    if (!PyArg_ParseTuple(args, "OOOOO!iiiiOOOO", &a.hands, &a.talon, &a.tricks, &a.names, &PyTuple_Type,
                          &a.players, &a.per_hand, &a.declarer, &a.leader, &a.calls_king, &a.called, &a.pick,
                          &a.stash, &plan))
        return NULL;
    if (!(a.plan = lane_plan_of(plan))) return NULL;
    int rc = run_lane(&a, &res);
    if (rc <= 0) { if (rc < 0) return NULL; Py_RETURN_NONE; }
    const Tricks *tr = &res.tr;
    int n = tr->n;
    PyObject *hand_list = PyList_New(n), *seats = PyList_New(tr->nt), *winners = PyList_New(tr->nt);
    if (!hand_list || !seats || !winners) goto fail;
    for (int s = 0; s < n; s++) PyList_SET_ITEM(hand_list, s, u64(res.hands[s]));
    for (int t = 0; t < tr->nt; t++) {
        PyObject *who = PyTuple_New(n);
        if (!who) goto fail;
        for (int i = 0; i < n; i++) PyTuple_SET_ITEM(who, i, PyLong_FromLong(tr->who[t][i]));
        PyList_SET_ITEM(seats, t, who);
        PyList_SET_ITEM(winners, t, PyLong_FromLong(tr->winners[t]));
    }
    return Py_BuildValue("(NNNiiNNNN)", hand_list, seats, winners, res.partner, res.king_in_talon, u64(res.pick),
                         u64(res.stash), u64(res.declarer_hand), res.facts);
fail:
    Py_XDECREF(hand_list);
    Py_XDECREF(seats);
    Py_XDECREF(winners);
    Py_DECREF(res.facts);
    return NULL;
}

static int set_new(PyObject *dict, PyObject *key, PyObject *value) {
    /* dict[key] = value, stealing the reference to value. */
    if (!value) return -1;
    int rc = PyDict_SetItem(dict, key, value);
    Py_DECREF(value);
    return rc;
}

/* trick_dicts(tricks, seats, winners, players) -> the ``tricks`` list of a check object
 * (tarock.check.summary.deal_summary): per complete trick its leader, players, card codes, winner and card points. */
static PyObject *py_trick_dicts(PyObject *self, PyObject *args) {
    PyObject *tricks, *seats, *winners, *players;
    if (!PyArg_ParseTuple(args, "OO!O!O!", &tricks, &PyList_Type, &seats, &PyList_Type, &winners, &PyTuple_Type,
                          &players))
        return NULL;
    if (!ready || !codes) Py_RETURN_NONE;
    PyObject *seq = PySequence_Fast(tricks, "tricks must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t nt = PyList_GET_SIZE(winners), np = PyTuple_GET_SIZE(players);
    if (PySequence_Fast_GET_SIZE(seq) < nt || PyList_GET_SIZE(seats) < nt) { Py_DECREF(seq); Py_RETURN_NONE; }
    PyObject *out = PyList_New(nt);
    if (!out) { Py_DECREF(seq); return NULL; }
    int cards[MAX_SEATS], who[MAX_SEATS];
    for (Py_ssize_t t = 0; t < nt; t++) {
        int len = read_trick(PySequence_Fast_GET_ITEM(seq, t), cards, MAX_SEATS);
        long w = PyLong_AsLong(PyList_GET_ITEM(winners, t));
        if (len < 1 || w < 0 || w >= np || read_seats(PyList_GET_ITEM(seats, t), who, len) < 0) goto none;
        for (int i = 0; i < len; i++) if (who[i] >= np) goto none;
        PyObject *d = PyDict_New();
        if (!d) goto fail;
        PyList_SET_ITEM(out, t, d);
        PyObject *names = PyList_New(len), *codes_list = PyList_New(len);
        if (!names || !codes_list) { Py_XDECREF(names); Py_XDECREF(codes_list); goto fail; }
        long points = 0;
        for (int i = 0; i < len; i++) {
            PyObject *name = PyTuple_GET_ITEM(players, who[i]), *code = PyTuple_GET_ITEM(codes, cards[i]);
            Py_INCREF(name);
            Py_INCREF(code);
            PyList_SET_ITEM(names, i, name);
            PyList_SET_ITEM(codes_list, i, code);
            points += card_points[cards[i]];
        }
        PyObject *leader = PyTuple_GET_ITEM(players, who[0]), *winner = PyTuple_GET_ITEM(players, w);
        Py_INCREF(leader);
        Py_INCREF(winner);
        if (set_new(d, key_leader, leader) < 0 || set_new(d, key_players, names) < 0
            || set_new(d, key_cards, codes_list) < 0 || set_new(d, key_winner, winner) < 0
            || set_new(d, key_points, PyLong_FromLong(points)) < 0)
            goto fail;
    }
    Py_DECREF(seq);
    return out;
none:
    PyErr_Clear();
    Py_DECREF(seq);
    Py_DECREF(out);
    Py_RETURN_NONE;
fail:
    Py_DECREF(seq);
    Py_DECREF(out);
    return NULL;
}


static int seat_of_api(PyObject *name, PyObject *players) { return seat_of(name, players); }
static const Rules *play_rules_of(PyObject *capsule) { return (const Rules *)PyCapsule_GetPointer(capsule, RULES_CAPSULE); }

static const KernelApi api = {
    .version = KERNEL_API_VERSION,
    .size = sizeof(KernelApi),
    .args_size = sizeof(LaneArgs),
    .result_size = sizeof(LaneResult),
    .run_lane = run_lane,
    .seat_of = seat_of_api,
    .lane_plan = lane_plan_of,
    .play_rules = play_rules_of,
    .legal_mask = legal_mask,
    .trick_winner = trick_winner,
};

static PyMethodDef methods[] = {
    {"init", py_init, METH_O, "Load the card tables from a mapping of tarock.cards' names (vars(tarock.cards))."},
    {"rules", py_rules, METH_O, "The play rules ``play`` takes, read by the names of PLAY_RULE_FIELDS."},
    {"lane_plan", py_lane_plan, METH_O,
     "The plan ``lane`` takes, read by the names of PLAY_RULE_FIELDS and OUTCOME_RULE_FIELDS."},
    {"seats", py_seats, METH_VARARGS, "Seats and trick winners of unnamed tricks."},
    {"played_by", py_played_by, METH_VARARGS, "Mask of the cards a seat played."},
    {"play", py_play, METH_VARARGS, "Winners and piles of a deal played in turn with legal cards, else None."},
    {"lane", py_lane, METH_VARARGS, "A whole clean Slovenian deal (tarock.accel.lane), else None."},
    {"trick_dicts", py_trick_dicts, METH_VARARGS, "The tricks of a check object."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fastplay", "The engine's hot path in C.", -1, methods};

static PyObject *names_tuple(const char *const *names, int count) {
    /* The names, None where there is none. */
    PyObject *out = PyTuple_New(count);
    if (!out) return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *name = names[i] ? PyUnicode_InternFromString(names[i]) : Py_NewRef(Py_None);
        if (!name) { Py_DECREF(out); return NULL; }
        PyTuple_SET_ITEM(out, i, name);
    }
    return out;
}

static PyObject *pagat_last_table(void) {
    /* Per code of the Pagat in the last trick: None, or (the side's name, the Pagat won the trick). */
    PyObject *out = PyTuple_New(N_PAGAT_LAST);
    if (!out) return NULL;
    PyTuple_SET_ITEM(out, 0, Py_NewRef(Py_None));
    for (int side = SIDE_DECLARER; side < N_SIDES; side++)
        for (int won = 0; won < 2; won++) {
            PyObject *entry = Py_BuildValue("(sO)", side_names[side], won ? Py_True : Py_False);
            if (!entry) { Py_DECREF(out); return NULL; }
            PyTuple_SET_ITEM(out, pagat_last_code(side, won), entry);
        }
    return out;
}

static int add_new(PyObject *m, const char *name, PyObject *value) {
    /* m.name = value, stealing the reference. */
    if (!value) return -1;
    int rc = PyModule_AddObjectRef(m, name, value);
    Py_DECREF(value);
    return rc;
}

PyMODINIT_FUNC PyInit__fastplay(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (add_new(m, "PLAY_RULE_FIELDS", field_names(play_fields, N_PLAY_FIELDS)) < 0
        || add_new(m, "OUTCOME_RULE_FIELDS", field_names(outcome_fields, N_OUTCOME_FIELDS)) < 0
        || add_new(m, "DECLARER_FACTS", names_tuple(declarer_fact_names, N_DECLARER_FACTS)) < 0
        || add_new(m, "KLOP_FACTS", names_tuple(klop_fact_names, N_KLOP_FACTS)) < 0
        || add_new(m, "SIDES", names_tuple(side_names, N_SIDES)) < 0
        || add_new(m, "PAGAT_LAST", pagat_last_table()) < 0
        || PyModule_AddIntConstant(m, "EMPEROR_NEVER", EMPEROR_NEVER) < 0
        || PyModule_AddIntConstant(m, "EMPEROR_ALWAYS", EMPEROR_ALWAYS) < 0
        || PyModule_AddIntConstant(m, "EMPEROR_TAROK_LEAD", EMPEROR_TAROK_LEAD) < 0
        || add_new(m, "KERNEL_API", PyCapsule_New((void *)&api, KERNEL_API_CAPSULE, NULL)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

