/*
 * The engine's hot path in C: who played each recorded card, who won each trick, and whether every
 * card of a deal's play was held and legal -- for a whole deal in one call.
 *
 * This is an accelerator, not a second rulebook: the card tables come from tarock.cards (``init``),
 * the switches from the contract's follow rules, and ``play`` answers only for a deal it can vouch
 * for completely (every trick complete, every card in turn, held and legal).  For anything else it
 * returns None and the Python engine (tarock.game.Game, the reference) replays the deal card by card,
 * writing the findings.  tests/accel/test_fast_lane.py checks both agree on generated deals with every kind
 * of renons.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define N_CARDS 54
#define MAX_SEATS 4
#define MAX_TRICKS 18

static uint8_t card_suit[N_CARDS];
static uint8_t card_points[N_CARDS];
static uint64_t suit_mask[5];
static uint64_t above[N_CARDS];
static uint64_t tarok_mask, plain_mask;
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

#define EMPEROR_ALWAYS 1

typedef struct {
    int trumps, void_tarok, negative, pagat_last, pagat_emperor, tarok_lead_last, force_pagat, emperor;
    uint64_t pagat_scope;
} Rules;

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
    if (emperor && has_pagat && has_mond && has_skis && (emperor == EMPEROR_ALWAYS || led_suit == tarok_suit))
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

static PyObject *py_init(PyObject *self, PyObject *args) {
    PyObject *suits, *points, *suit_masks, *aboves;
    unsigned long long tm, pm;
    PyObject *code_tuple;
    if (!PyArg_ParseTuple(args, "OOOOKKiiiiO!", &suits, &points, &suit_masks, &aboves, &tm, &pm, &pagat, &mond,
                          &skis, &tarok_suit, &PyTuple_Type, &code_tuple))
        return NULL;
    if (PyTuple_GET_SIZE(code_tuple) != N_CARDS) {
        PyErr_SetString(PyExc_ValueError, "54 card codes expected");
        return NULL;
    }
    Py_INCREF(code_tuple);
    Py_XSETREF(codes, code_tuple);
    key_leader = PyUnicode_InternFromString("leader");
    key_players = PyUnicode_InternFromString("players");
    key_cards = PyUnicode_InternFromString("cards");
    key_winner = PyUnicode_InternFromString("winner");
    key_points = PyUnicode_InternFromString("points");
    if (!key_leader || !key_players || !key_cards || !key_winner || !key_points) return NULL;
    for (int c = 0; c < N_CARDS; c++) {
        card_suit[c] = (uint8_t)PyLong_AsLong(PySequence_Fast_GET_ITEM(suits, c));
        card_points[c] = (uint8_t)PyLong_AsLong(PySequence_Fast_GET_ITEM(points, c));
        above[c] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(aboves, c));
    }
    for (int s = 0; s < 5; s++) suit_mask[s] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(suit_masks, s));
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
    if (PyErr_Occurred()) return NULL;
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

static int holder(uint64_t target, uint64_t ours, uint64_t theirs) {
    if ((ours & target) == target) return 1;
    if ((theirs & target) == target) return 2;
    return 0;
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

typedef struct {
    int n, nt;                          /* players, tricks recorded */
    int cards[MAX_TRICKS][MAX_SEATS];   /* each trick's cards in play order */
    int who[MAX_TRICKS][MAX_SEATS];     /* the seat that played each card */
    int winners[MAX_TRICKS];
    uint64_t piles[MAX_SEATS];          /* the cards each seat took */
} Tricks;

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
        if ((trick & trula) == trula && r->emperor && (r->emperor == EMPEROR_ALWAYS || card_suit[cards[0]] == tarok_suit))
            for (int i = 0; i < n; i++) if (cards[i] == pagat) win_pos = i;
        turn = tr->winners[t] = tr->who[t][win_pos];
        tr->piles[turn] |= trick;
    }
    return 0;
}

/* play(hands, tricks, seats, leader, total_tricks, trumps, void_tarok, negative, pagat_last, pagat_scope,
 *      pagat_emperor, tarok_lead_last, force_pagat, emperor)
 *   -> (winners, piles) when every recorded trick (at least one, at most ``total_tricks``) is complete and
 *      was played in turn from the hands with legal cards; None otherwise (the reference engine then
 *      replays the deal).  Whether a record may stop before ``total_tricks`` is the caller's question. */
static PyObject *py_play(PyObject *self, PyObject *args) {
    PyObject *hands_obj, *tricks, *seats;
    int leader, total;
    unsigned long long scope;
    Rules r;
    if (!PyArg_ParseTuple(args, "O!O!O!iiiiiiKiiii", &PyList_Type, &hands_obj, &PyTuple_Type, &tricks,
                          &PyList_Type, &seats, &leader, &total, &r.trumps, &r.void_tarok, &r.negative,
                          &r.pagat_last, &scope, &r.pagat_emperor, &r.tarok_lead_last, &r.force_pagat,
                          &r.emperor))
        return NULL;
    r.pagat_scope = scope;
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
    if (play_tricks(&tr, hands, leader, &r) < 0) Py_RETURN_NONE;
    if (played == total)
        for (int s = 0; s < n; s++) if (hands[s]) Py_RETURN_NONE;
    PyObject *w = PyList_New(played), *p = PyList_New(n);
    if (!w || !p) { Py_XDECREF(w); Py_XDECREF(p); return NULL; }
    for (int t = 0; t < played; t++) PyList_SET_ITEM(w, t, PyLong_FromLong(tr.winners[t]));
    for (int s = 0; s < n; s++) PyList_SET_ITEM(p, s, u64(tr.piles[s]));
    return Py_BuildValue("(NN)", w, p);
}

typedef struct {
    int beggar, valat, normal, mond_applies, any_side;
    uint64_t trula, kings;
} OutcomeRules;

static PyObject *klop_facts(const Tricks *tr, const int *talon) {
    /* (points per seat, tricks per seat): the talon's 6 cards go one by one to the first tricks' winners. */
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
    return Py_BuildValue("(NN)", points, tricks);
}

static PyObject *declarer_facts(const Tricks *tr, const OutcomeRules *o, int per_hand, int group, int declarer,
                                int partner, int called_king, int king_in_talon, uint64_t pick, uint64_t stash,
                                uint64_t talon_mask) {
    /* slovenian_replay.outcome for a contract with a declarer, played without a fault, table events or claim:
     * (declarer side's points, opponents' points, valat side, trula side, kings side, pagat last, king last,
     *  Mondfang payers, the declarer's side lost a trick, deciding trick).  Sides are 0 (none), 1 (declarer's
     * side), 2 (opponents); pagat last is 0 (not in a full deal's last trick) or 1 + 2 * (side - 1) + (the
     * Pagat won it); the deciding trick is 0 when none decided a Berač or valat. */
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
    if (group && brought_home) dpile |= unchosen; else opile |= unchosen;
    int lost = 0, won_any = 0, decided = 0;
    for (int t = 0; t < nt; t++) {
        int w = tr->winners[t];
        if (ours[w]) won_any = 1; else lost = 1;
        if (!decided && ((o->beggar && w == declarer) || (o->valat && w != declarer))) decided = t + 1;
    }
    int full = nt == per_hand, valat_side = 0, pagat_last = 0, king_last = 0;
    if (o->valat) valat_side = lost ? 0 : 1;
    else if (full) valat_side = !lost ? 1 : (!won_any ? 2 : 0);
    if (full) {
        int t = nt - 1;
        for (int i = 0; i < n; i++) {
            int seat = tr->who[t][i];
            if (tr->cards[t][i] == pagat) pagat_last = 1 + 2 * !ours[seat] + (seat == tr->winners[t]);
            if (tr->cards[t][i] == called_king) king_last = ours[tr->winners[t]] ? 1 : 2;
        }
    }
    int payers[2], n_payers = 0;
    if (o->mond_applies) {
        for (int t = 0; t < nt; t++) {
            int at = -1, w = tr->winners[t], win_card = -1;
            for (int i = 0; i < n; i++) {
                if (tr->cards[t][i] == mond) at = i;
                if (tr->who[t][i] == w) win_card = tr->cards[t][i];
            }
            if (at < 0) continue;
            int owner = tr->who[t][at];
            if ((win_card == skis || win_card == pagat) && (o->any_side || ours[w] != ours[owner]))
                payers[n_payers++] = owner;
            break;
        }
        if (o->normal && (unchosen >> mond & 1) && !brought_home) payers[n_payers++] = declarer;
    }
    PyObject *mondfang = PyTuple_New(n_payers);
    if (!mondfang) return NULL;
    for (int i = 0; i < n_payers; i++) PyTuple_SET_ITEM(mondfang, i, PyLong_FromLong(payers[i]));
    return Py_BuildValue("(iiiiiiiNii)", counted(dpile), counted(opile), valat_side, holder(o->trula, dpile, opile),
                         holder(o->kings, dpile, opile), pagat_last, king_last, mondfang, lost, decided);
}

/* The fast lane: a whole clean Slovenian deal.  ``run_lane`` does the work for ``lane`` and ``add_clean``. */

typedef struct {
    PyObject *hands, *talon, *tricks, *names, *players, *pick, *stash, *called;
    int per_hand, declarer, leader, calls_king, klop, group;
    uint64_t required;
    Rules r;
    OutcomeRules o;
} LaneArgs;

typedef struct {
    Tricks tr;
    uint64_t hands[MAX_SEATS], pick, stash, declarer_hand;
    int partner, king_in_talon;
    PyObject *facts;
} LaneResult;

static int parse_lane(PyObject *args, LaneArgs *a) {
    /* The arguments of ``lane``. */
    unsigned long long required, scope, trula, kings;
    Rules *r = &a->r;
    OutcomeRules *o = &a->o;
    int ok = PyArg_ParseTuple(args, "OOOOO!iiiiOOOiK(iiiiKiiii)(iiiiiiKK)", &a->hands, &a->talon, &a->tricks,
                              &a->names, &PyTuple_Type, &a->players, &a->per_hand, &a->declarer, &a->leader,
                              &a->calls_king, &a->called, &a->pick, &a->stash, &a->klop, &required, &r->trumps,
                              &r->void_tarok, &r->negative, &r->pagat_last, &scope, &r->pagat_emperor,
                              &r->tarok_lead_last, &r->force_pagat, &r->emperor, &a->group, &o->beggar, &o->valat,
                              &o->normal, &o->mond_applies, &o->any_side, &trula, &kings);
    if (!ok) return -1;
    a->required = required;
    r->pagat_scope = scope;
    o->trula = trula;
    o->kings = kings;
    return 0;
}

static int run_lane(const LaneArgs *a, LaneResult *res) {
    /* 1 and ``res`` filled (its ``facts`` a new reference) for a clean deal, 0 to decline, -1 on an error. */
    const Rules *r = &a->r;
    const OutcomeRules *o = &a->o;
    int per_hand = a->per_hand, declarer = a->declarer, leader = a->leader, group = a->group;
    int by_name = PyDict_Check(a->hands), count, talon[6];
    int n = (int)(by_name ? PyTuple_GET_SIZE(a->players) : seq_len(a->hands));
    if (!ready || n < 1 || n > MAX_SEATS || seq_len(a->talon) != 6 || declarer >= n) return 0;
    /* the deal */
    PyObject *hand_of[MAX_SEATS];
    for (int s = 0; s < n; s++)
        if (!(hand_of[s] = by_name ? PyDict_GetItem(a->hands, PyTuple_GET_ITEM(a->players, s)) : seq_at(a->hands, s)))
            return 0;
    uint64_t *hands = res->hands, seen = 0, talon_mask = 0;
    for (int s = 0; s <= n; s++) {
        uint64_t m = cards_mask(s < n ? hand_of[s] : a->talon, &count);
        if (m == ~0ULL || count != (s < n ? per_hand : 6) || __builtin_popcountll(m) != count || (m & seen)
            || (s < n && !(m & a->required)))
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
        if (called_king < 0 || !(o->kings >> called_king & 1)) return 0;
        king_in_talon = 1;
        for (int s = 0; s < n; s++)
            if (hands[s] >> called_king & 1) { partner = s == declarer ? -1 : s; king_in_talon = 0; }
    }
    /* the tricks and who played them */
    Tricks *tr = &res->tr;
    if (load_tricks(tr, a->tricks, n, a->names, a->players, leader, r->trumps, r->emperor) < 0
        || tr->nt > per_hand || (tr->nt < per_hand && !(o->beggar || o->valat)))
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
            || (stash & (o->kings | o->trula)) || ((stash & tarok_mask) && (after & plain_mask & ~o->kings & ~stash)))
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
    PyObject *facts = a->klop ? klop_facts(tr, talon)
                              : declarer_facts(tr, o, per_hand, group, declarer, partner, called_king, king_in_talon,
                                               pick, stash, talon_mask);
    if (!facts) return -1;
    if (!a->klop && tr->nt < per_hand && PyLong_AsLong(PyTuple_GET_ITEM(facts, 9)) == 0) {
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
 *      stash, klop, required, play_rules, outcome_rules)
 *   -> (hands, seats, winners, partner, king_in_talon, pick, stash, declarer's hand to play, facts) or None.
 * tarock.accel.lane's whole deal: dealt without a fault (every hand ``per_hand`` cards, some in ``required``,
 * the talon 6, no card twice), a valid king call, a legal talon exchange, every trick complete and played in
 * turn from the hands with legal cards; then the facts (``klop_facts`` / ``declarer_facts``).  None at the
 * first sign of anything else: the reference engine then replays the deal and says what is wrong.
 * Cards are numbers or canonical codes, in tuples or lists; ``hands`` a sequence in seat order or a dict by
 * player name.  ``declarer`` is -1 for none; ``called_king``,
 * ``talon_pick`` and ``stash`` None when not recorded. */
static PyObject *py_lane(PyObject *self, PyObject *args) {
    LaneArgs a;
    LaneResult res;
    if (parse_lane(args, &a) < 0) return NULL;
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

/* add_clean(plain, context, roster, texts, extra=None) -> True when the deal's rows were added, False to decline.
 * ingest.bulk.BulkPath.add for a clean deal, in one call: the plain record (tarock.formats.decode.Plain) is
 * replayed (run_lane, its tricks appended to the partition's buffer), scored by the compiled scorer with the
 * radelci its session holds, and its ``deals`` row and ``results`` values appended to the partition's
 * columns (ingest.rows.CleanRows), the session's radelci updated.  ``context`` is the tuple
 * ingest.bulk._Spec.context lays out; ``roster`` the scorer's roster of the players; ``texts`` the deal's
 * (options_json, options_hash); ``extra`` the scorer's codes of the deal's announcements and kontras
 * (tarock.accel.scorer.extra_of).  A deal with a score sheet is added when the sheet says what was recomputed
 * (scores and, if it has them, radelci: tarock.check.audit.audit_scores finds nothing), else declined.  Nothing
 * is added when it declines or fails. */
enum {
    C_PER_HAND, C_HAS_DECLARER, C_DECLARER_LEADS, C_CALLS_KING, C_KLOP, C_REQUIRED, C_PLAY_RULES, C_OUTCOME_RULES,
    C_SCORE, C_PLAN, C_ZEROS, C_ROLES, C_TRICKS, C_LINES, C_DEALS, C_ROLE_LIST, C_SCORE_LIST, C_BEFORE_LIST,
    C_AFTER_LIST, C_BREAKDOWN_LIST, C_ROSTER_OF, C_ROSTERS, C_LEDGERS, C_ADDED, C_PARSE_DATE, C_KLOP_POINTS,
    C_CARD_POINTS, C_RECORDED_LIST, C_DIFF_LIST, C_NONES, C_SIZE
};
enum { P_LINE, P_DATA, P_RECORD, P_PLAYERS, P_TEXT, P_DIGEST, P_DEAL_ID, P_SIZE };

#define N_ATTRS 12
static PyObject *attr_names[N_ATTRS], *name_scores, *name_radelci;
static const char *attr_texts[N_ATTRS] = {"hands", "talon", "tricks", "called_king", "talon_pick", "stash", "session",
                                          "seq", "date", "contract", "declarer", "recorded"};
enum {
    A_HANDS, A_TALON, A_TRICKS, A_CALLED, A_PICK, A_STASH, A_SESSION, A_SEQ, A_DATE, A_CONTRACT, A_DECLARER, A_RECORDED
};

static int matches(PyObject *recorded, PyObject *players, PyObject *values) {
    /* Whether a sheet's {player: number} (a player missing counts 0) says ``values``, per seat: 1, 0, -1. */
    for (Py_ssize_t s = 0; s < PyTuple_GET_SIZE(players); s++) {
        PyObject *got = PyDict_GetItemWithError(recorded, PyTuple_GET_ITEM(players, s));
        if (!got) {
            if (PyErr_Occurred()) return -1;
            long value = PyLong_AsLong(PyTuple_GET_ITEM(values, s));
            if (value == -1 && PyErr_Occurred()) return -1;
            if (value != 0) return 0;
            continue;
        }
        int same = PyObject_RichCompareBool(got, PyTuple_GET_ITEM(values, s), Py_EQ);
        if (same <= 0) return same;
    }
    return 1;
}

static int extend(PyObject *list, PyObject *items) {
    /* list += items */
    Py_ssize_t at = PyList_GET_SIZE(list);
    return PyList_SetSlice(list, at, at, items);
}

static PyObject *name_options, *name_bidding, *name_announcements;

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

static PyObject *add_clean(PyObject *plain, PyObject *ctx, PyObject *roster, PyObject *texts, PyObject *extra);

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
    if (PyTuple_GET_SIZE(plain) < P_SIZE || names_ready() < 0) return NULL;
    PyObject *record = PyTuple_GET_ITEM(plain, P_RECORD), *players = PyTuple_GET_ITEM(plain, P_PLAYERS);
    PyObject *options = PyObject_GetAttr(record, name_options), *bidding = PyObject_GetAttr(record, name_bidding);
    PyObject *contract = PyObject_GetAttr(record, attr_names[A_CONTRACT]);
    PyObject *announced = PyObject_GetAttr(record, name_announcements);
    PyObject *result = NULL, *key = NULL;
    if (!options || !bidding || !contract || !announced) goto done;
    if (options != Py_None || bidding != Py_None || (announced != Py_None && PyObject_IsTrue(announced))
        || !PyTuple_Check(players)) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    PyObject *count = PyLong_FromSsize_t(PyTuple_GET_SIZE(players));
    if (!count) goto done;
    key = PyTuple_Pack(2, contract, count);
    Py_DECREF(count);
    if (!key) goto done;
    PyObject *ctx = PyDict_GetItemWithError(contexts, key), *roster = ctx ? PyDict_GetItemWithError(rosters, players) : NULL;
    if (!ctx || !roster) {
        if (!PyErr_Occurred()) { result = Py_None; Py_INCREF(result); }
        goto done;
    }
    if (roster == Py_None) { result = Py_False; Py_INCREF(result); goto done; }  /* names the scorer does not take */
    result = add_clean(plain, ctx, roster, texts, Py_None);
done:
    Py_XDECREF(options);
    Py_XDECREF(bidding);
    Py_XDECREF(contract);
    Py_XDECREF(announced);
    Py_XDECREF(key);
    return result;
}

static PyObject *add_clean(PyObject *plain, PyObject *ctx, PyObject *roster, PyObject *texts, PyObject *extra) {
    if (!PyTuple_Check(ctx) || PyTuple_GET_SIZE(plain) < P_SIZE || PyTuple_GET_SIZE(ctx) != C_SIZE
        || PyTuple_GET_SIZE(texts) != 2) {
        PyErr_SetString(PyExc_ValueError, "add_clean: unexpected arguments");
        return NULL;
    }
    if (names_ready() < 0) return NULL;
    PyObject *record = PyTuple_GET_ITEM(plain, P_RECORD), *players = PyTuple_GET_ITEM(plain, P_PLAYERS);
    if (!PyTuple_Check(players)) Py_RETURN_FALSE;
    PyObject *field[N_ATTRS];
    for (int i = 0; i < N_ATTRS; i++) {
        field[i] = PyObject_GetAttr(record, attr_names[i]);
        if (!field[i]) { for (int j = 0; j < i; j++) Py_DECREF(field[j]); return NULL; }
    }
    PyObject *result = NULL, *facts = NULL, *scored = NULL, *before = NULL, *row = NULL, *new_ledger = NULL;
    PyObject *sheet = NULL, *sheet_radelci = NULL, *on_sheet = NULL;
    PyObject *tricks = PyTuple_GET_ITEM(ctx, C_TRICKS), *lines = PyTuple_GET_ITEM(ctx, C_LINES);
    Py_ssize_t tricks_at = PyByteArray_GET_SIZE(tricks), lines_at = PyByteArray_GET_SIZE(lines);
    int n = (int)PyTuple_GET_SIZE(players), seat = -1;
    /* the declarer */
    PyObject *declarer = field[A_DECLARER];
    if (PyObject_IsTrue(PyTuple_GET_ITEM(ctx, C_HAS_DECLARER))) {
        if (declarer == Py_None || (seat = seat_of(declarer, players)) < 0) goto decline;
    } else if (declarer != Py_None) {
        goto decline;
    }
    /* the replay */
    LaneArgs a;
    a.hands = field[A_HANDS]; a.talon = field[A_TALON]; a.tricks = field[A_TRICKS]; a.names = Py_None;
    a.players = players; a.pick = field[A_PICK]; a.stash = field[A_STASH]; a.called = field[A_CALLED];
    a.per_hand = (int)PyLong_AsLong(PyTuple_GET_ITEM(ctx, C_PER_HAND));
    a.declarer = seat;
    a.leader = seat >= 0 && PyObject_IsTrue(PyTuple_GET_ITEM(ctx, C_DECLARER_LEADS)) ? seat : 0;
    a.calls_king = PyObject_IsTrue(PyTuple_GET_ITEM(ctx, C_CALLS_KING));
    a.klop = PyObject_IsTrue(PyTuple_GET_ITEM(ctx, C_KLOP));
    a.required = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(ctx, C_REQUIRED));
    unsigned long long scope, trula, kings;
    Rules *r = &a.r;
    OutcomeRules *o = &a.o;
    if (!PyArg_ParseTuple(PyTuple_GET_ITEM(ctx, C_PLAY_RULES), "iiiiKiiii", &r->trumps, &r->void_tarok, &r->negative,
                          &r->pagat_last, &scope, &r->pagat_emperor, &r->tarok_lead_last, &r->force_pagat, &r->emperor)
        || !PyArg_ParseTuple(PyTuple_GET_ITEM(ctx, C_OUTCOME_RULES), "iiiiiiKK", &a.group, &o->beggar, &o->valat,
                             &o->normal, &o->mond_applies, &o->any_side, &trula, &kings))
        goto fail;
    r->pagat_scope = scope;
    o->trula = trula;
    o->kings = kings;
    if (PyErr_Occurred()) goto fail;
    LaneResult res;
    int rc = run_lane(&a, &res);
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
    PyObject *call[9] = {PyTuple_GET_ITEM(ctx, C_PLAN), roster, who_declares, who_partners, facts, before, first_row,
                         lines, extra};
    scored = PyObject_Vectorcall(PyTuple_GET_ITEM(ctx, C_SCORE), call, 9, NULL);
    Py_DECREF(who_declares);
    Py_DECREF(who_partners);
    Py_DECREF(first_row);
    if (!scored) goto fail;
    if (scored == Py_None) goto decline;
    if (!PyTuple_Check(scored) || PyTuple_GET_SIZE(scored) != 4) {
        PyErr_SetString(PyExc_TypeError, "add_clean: the scorer returned something else");
        goto fail;
    }
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
        int same = matches(sheet, players, scores);
        if (same == 1 && sheet_radelci != Py_None) same = matches(sheet_radelci, players, after);
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
    /* the deals row (ingest.rows.CleanRows.ROW) */
    PyObject *ours, *theirs, *card_points, *date;
    if (a.klop) {
        ours = Py_None; theirs = Py_None;
        Py_INCREF(Py_None); Py_INCREF(Py_None);
        card_points = PyObject_CallFunctionObjArgs(PyTuple_GET_ITEM(ctx, C_KLOP_POINTS), players,
                                                   PyTuple_GET_ITEM(facts, 0), NULL);
    } else {
        ours = PyTuple_GET_ITEM(facts, 0); theirs = PyTuple_GET_ITEM(facts, 1);
        Py_INCREF(ours); Py_INCREF(theirs);
        long dp = PyLong_AsLong(ours), op = PyLong_AsLong(theirs);
        PyObject *table = PyTuple_GET_ITEM(ctx, C_CARD_POINTS);
        card_points = NULL;
        if (dp >= 0 && op >= 0 && dp < PyList_GET_SIZE(table) && op < PyList_GET_SIZE(PyList_GET_ITEM(table, dp))) {
            card_points = PyList_GET_ITEM(PyList_GET_ITEM(table, dp), op);
            Py_INCREF(card_points);
        } else if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "add_clean: card points out of range");
        }
    }
    date = field[A_DATE] == Py_None ? (Py_INCREF(Py_None), Py_None)
                                   : PyObject_CallOneArg(PyTuple_GET_ITEM(ctx, C_PARSE_DATE), field[A_DATE]);
    PyObject *partner_name = partner < 0 ? Py_None : PyTuple_GET_ITEM(players, partner);
    Py_INCREF(partner_name);
    if (!card_points || !date) {
        Py_DECREF(ours); Py_DECREF(theirs); Py_XDECREF(card_points); Py_XDECREF(date); Py_DECREF(partner_name);
        goto fail;
    }
    row = Py_BuildValue("(OOOOOOOONOONNNiOOOO)", PyTuple_GET_ITEM(plain, P_DEAL_ID), PyTuple_GET_ITEM(plain, P_DIGEST),
                        PyTuple_GET_ITEM(plain, P_LINE), session, field[A_SEQ], date, field[A_CONTRACT], declarer,
                        partner_name, field[A_CALLED], won, ours, theirs, card_points, tr->nt,
                        has_sheet ? Py_True : Py_False, PyTuple_GET_ITEM(texts, 1), PyTuple_GET_ITEM(texts, 0),
                        PyTuple_GET_ITEM(plain, P_TEXT));
    Py_DECREF(date);
    if (!row) goto fail;
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
    if (PyList_Append(deals, row) < 0 || extend(PyTuple_GET_ITEM(ctx, C_ROLE_LIST), roles) < 0
        || extend(PyTuple_GET_ITEM(ctx, C_SCORE_LIST), scores) < 0
        || extend(PyTuple_GET_ITEM(ctx, C_BEFORE_LIST), before) < 0
        || extend(PyTuple_GET_ITEM(ctx, C_AFTER_LIST), after) < 0
        || extend(PyTuple_GET_ITEM(ctx, C_BREAKDOWN_LIST), breakdown) < 0
        || extend(PyTuple_GET_ITEM(ctx, C_RECORDED_LIST), on_sheet) < 0
        || extend(PyTuple_GET_ITEM(ctx, C_DIFF_LIST), diffs) < 0
        || PyList_Append(PyTuple_GET_ITEM(ctx, C_ROSTER_OF), roster_id) < 0
        || PyList_Append(PyTuple_GET_ITEM(ctx, C_ADDED), PyTuple_GET_ITEM(plain, P_LINE)) < 0)
        goto fail;  /* out of memory: the shard fails as it would anyway */
    if (ledger)
        for (int s = 0; s < n; s++)
            if (PyDict_SetItem(ledger, PyTuple_GET_ITEM(players, s), PyTuple_GET_ITEM(after, s)) < 0) goto fail;
    result = Py_True;
    Py_INCREF(result);
    goto done;
decline:
    result = Py_False;
    Py_INCREF(result);
fail:
    if (!result || result == Py_False) {
        if (PyByteArray_GET_SIZE(tricks) > tricks_at) PyByteArray_Resize(tricks, tricks_at);
        if (PyByteArray_GET_SIZE(lines) > lines_at) PyByteArray_Resize(lines, lines_at);
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

static PyMethodDef methods[] = {
    {"init", py_init, METH_VARARGS, "Load the card tables (tarock.cards)."},
    {"seats", py_seats, METH_VARARGS, "Seats and trick winners of unnamed tricks."},
    {"played_by", py_played_by, METH_VARARGS, "Mask of the cards a seat played."},
    {"play", py_play, METH_VARARGS, "Winners and piles of a deal played in turn with legal cards, else None."},
    {"lane", py_lane, METH_VARARGS, "A whole clean Slovenian deal (tarock.accel.lane), else None."},
    {"add_clean", py_add_clean, METH_VARARGS, "Ingest's bulk path for one clean deal: replayed, scored, its rows added."},
    {"add_plain", py_add_plain, METH_VARARGS, "add_clean for a deal under the default options, found by contract."},
    {"trick_dicts", py_trick_dicts, METH_VARARGS, "The tricks of a check object."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fastplay", "The engine's hot path in C.", -1, methods};

PyMODINIT_FUNC PyInit__fastplay(void) { return PyModule_Create(&module); }
