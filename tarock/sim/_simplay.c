/*
 * The simulator's hot paths in C: the deck's shuffle (``random.Random.shuffle``) and the deal
 * (tarock/sim/randomplay.py's ``deal_cards``), a dealt hand's value for bidding (tarock/sim/players.py's
 * ``value_hand``) and the contracts each seat would play (``acceptable_contracts``, by the players' ``STYLES``
 * handed over at load, the mood drawn by the generator's own ``gauss``), and the card play: a whole deal played
 * out by the heuristic
 * players of tarock/sim/players.py (``CardPlay``, and the Piccolo-type declarer of
 * tarock/sim/koenigrufen_players.py's ``KoenigrufenPlay``) on the bare table of tarock/sim/table.py
 * (``Table.play_out``), in one call.
 *
 * A projection of the Python players, never a second player: every rule of thumb below is the Python
 * method of the same name, line for line, and tests/sim/test_compiled_play.py checks both choose the same
 * cards on many seeded deals of both rulesets (and the shuffle the same draws).  It holds no rules of the game: the legal cards and each
 * trick's winner come from the kernel (tarock/accel/_fastplay.c) through its ``KERNEL_API`` capsule
 * (tarock/accel/kernel.h), by the play rules the caller hands in (a ``rules`` capsule).  The card tables and
 * the players' sort keys are read by name at ``init`` (tarock.cards, tarock.sim.players).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>

#include "kernel.h"
#include "tables.h"

static const KernelApi *api = NULL;
static uint8_t card_suit[N_CARDS], card_points[N_CARDS];
static uint64_t above[N_CARDS], suit_mask[5];
static uint64_t tarok_mask, plain_mask, trula_mask, kings_mask;
static int pagat, mond, skis, tarok_suit;
static long value_key[N_CARDS], smear_key[N_CARDS], rank[N_CARDS];
static double tarok_risk[22];
static uint64_t high_taroks, queens[4];
static long colour_taroks, uncounted, kings[4];
static int ready = 0;

/* -- the players' helpers (tarock/sim/players.py: lowest, highest, low_bit, high_bit, count) ------------ */

static inline int low_bit(uint64_t m) { return __builtin_ctzll(m); }
static inline int high_bit(uint64_t m) { return 63 - __builtin_clzll(m); }
static inline int count(uint64_t m) { return __builtin_popcountll(m); }

/* The card of a non-empty mask with the smallest key (the lowest card on a tie). */
static int lowest(uint64_t m, const long *key) {
    int best = -1;
    long best_key = 1L << 30;
    for (; m; m &= m - 1) {
        int c = low_bit(m);
        if (key[c] < best_key) { best = c; best_key = key[c]; }
    }
    return best;
}

/* The card of a non-empty mask with the largest key (the lowest card on a tie). */
static int highest(uint64_t m, const long *key) {
    int best = -1;
    long best_key = -(1L << 30);
    for (; m; m &= m - 1) {
        int c = low_bit(m);
        if (key[c] > best_key) { best = c; best_key = key[c]; }
    }
    return best;
}

/* -- one deal's players: CardPlay's state (and KoenigrufenPlay's declarers and target) ------------------ */

typedef struct {
    int n, trumps, negative, is_valat, declarer, partner, called_king, save_pagat, revealed, leader, target;
    unsigned declarers;  /* KoenigrufenPlay.declarers as seat bits (0: plain CardPlay) */
    uint64_t seen, fresh;
} Players;

/* The table as the players read it: hands, the unfinished trick, tricks taken. */
typedef struct {
    uint64_t hands[MAX_SEATS];
    int trick[MAX_SEATS], len, taken[MAX_SEATS];
} View;

/* CardPlay._winning: (card, seat) winning the unfinished trick (never the emperor: the players' own view). */
static int winning(const Players *p, const View *v, int *win_seat) {
    int win = v->trick[0], pos = 0;
    for (int i = 1; i < v->len; i++) {
        int card = v->trick[i];
        if ((card > win && card_suit[card] == card_suit[win]) || (p->trumps && card < 22 && 22 <= win)) {
            win = card;
            pos = i;
        }
    }
    *win_seat = (p->leader + pos) % p->n;
    return win;
}

/* CardPlay._beating */
static uint64_t beating(const Players *p, uint64_t legal, int win) {
    if (p->trumps && card_suit[win] != tarok_suit) return legal & (above[win] | tarok_mask);
    return legal & above[win];
}

/* CardPlay.friend */
static int friend_of(const Players *p, int seat, int other) {
    if (p->declarer < 0 || seat == other) return seat == other;
    int mine = seat == p->declarer || seat == p->partner;
    int theirs = other == p->declarer || other == p->partner;
    if (mine != theirs) return 0;
    return p->revealed || (seat == p->partner && other == p->declarer);
}

/* CardPlay._negative */
static int negative(const Players *p, const View *v, int seat, uint64_t legal) {
    if (!v->len) return lowest(legal, value_key);
    int win_seat, win = winning(p, v, &win_seat);
    uint64_t under = legal & ~beating(p, legal, win);
    int last = v->len == p->n - 1;
    if (p->declarer < 0 || seat == p->declarer || win_seat == p->declarer) {
        if (under) return highest(under, value_key);
        return last ? highest(legal, value_key) : lowest(legal, value_key);
    }
    return lowest(legal, value_key);
}

/* CardPlay._valat_lead */
static int valat_lead(const Players *p, uint64_t legal, uint64_t hand) {
    uint64_t outside = ~(p->seen | hand), masters = 0;
    for (uint64_t rest = legal; rest; rest &= rest - 1) {
        int card = low_bit(rest);
        if (!(above[card] & outside)) masters |= 1ULL << card;
    }
    if (p->trumps && (masters & tarok_mask)) return high_bit(masters & tarok_mask);
    return high_bit(masters ? masters : legal);
}

/* CardPlay._lead */
static int lead(const Players *p, int seat, uint64_t legal, uint64_t hand) {
    if (p->is_valat && seat == p->declarer) return valat_lead(p, legal, hand);
    uint64_t kings = legal & kings_mask & p->fresh;
    if (kings) return low_bit(kings);
    int on_side = seat == p->declarer || seat == p->partner;
    if (seat == p->declarer && !p->revealed && p->called_king >= 0) {
        uint64_t called_suit = legal & suit_mask[card_suit[p->called_king]];
        if (called_suit) return low_bit(called_suit);
    }
    uint64_t taroks = p->trumps ? legal & tarok_mask : 0;
    if (on_side && taroks && 2 * count(taroks) >= count(legal)) {
        int top = high_bit(taroks);
        uint64_t mond_bit = 1ULL << mond;
        if (top == mond && !((p->seen | hand) & (1ULL << skis)) && (taroks & ~mond_bit)) top = high_bit(taroks & ~mond_bit);
        return top;
    }
    uint64_t plain = legal & plain_mask;
    return lowest(plain ? plain : legal, value_key);
}

/* CardPlay._valat_follow */
static int valat_follow(const Players *p, const View *v, int seat, uint64_t legal) {
    int win_seat, win = winning(p, v, &win_seat);
    uint64_t beat = beating(p, legal, win);
    if (beat && (seat == p->declarer || win_seat == p->declarer))
        return v->len == p->n - 1 ? low_bit(beat) : high_bit(beat);
    return lowest(legal, value_key);
}

/* CardPlay._follow */
static int follow(const Players *p, const View *v, int seat, uint64_t legal, uint64_t hand) {
    int win_seat, win = winning(p, v, &win_seat);
    int last = v->len == p->n - 1;
    int friendly = friend_of(p, seat, win_seat);
    if (friendly && (last || (card_suit[win] == tarok_suit && win >= 18)))
        return highest((legal & ~trula_mask) ? legal & ~trula_mask : legal, smear_key);
    uint64_t beat = beating(p, legal, win);
    int points = 0;
    for (int i = 0; i < v->len; i++) points |= card_points[v->trick[i]] > 1;
    if (beat && !friendly && (last || points)) {
        uint64_t pagat_bit = 1ULL << pagat;
        int card = low_bit(beat);
        if (card == pagat && !last && (beat & ~pagat_bit)) card = low_bit(beat & ~pagat_bit);
        if (card != mond || last || ((p->seen | hand) & (1ULL << skis))) return card;
    }
    return lowest(legal, value_key);
}

/* KoenigrufenPlay.choose, then CardPlay.choose: the card ``seat`` plays from ``legal``. */
static int choose(const Players *p, const View *v, int seat, uint64_t legal) {
    if (p->target && (p->declarers >> seat & 1) && (legal & (legal - 1)) && v->taken[seat] < p->target) {
        if (!v->len) return (legal & tarok_mask) == 0 ? highest(legal, value_key) : high_bit(legal & tarok_mask);
        int win_seat, win = winning(p, v, &win_seat);
        uint64_t beat = beating(p, legal, win);
        if (beat) return (beat & tarok_mask) ? high_bit(beat & tarok_mask) : high_bit(beat);
    }
    if (!(legal & (legal - 1))) return low_bit(legal);
    uint64_t pagat_bit = 1ULL << pagat;
    if (seat == p->save_pagat && (legal & ~pagat_bit)) legal &= ~pagat_bit;
    if (p->negative) return negative(p, v, seat, legal);
    uint64_t hand = v->hands[seat];
    if (!v->len) return lead(p, seat, legal, hand);
    if (p->is_valat) return valat_follow(p, v, seat, legal);
    return follow(p, v, seat, legal, hand);
}

/* CardPlay.trick_done */
static void trick_done(Players *p, uint64_t mask, int winner) {
    p->seen |= mask;
    if (p->called_king >= 0 && (mask >> p->called_king & 1)) p->revealed = 1;
    if (p->fresh & mask)
        for (int suit = 1; suit < 5; suit++)
            if (mask & suit_mask[suit]) p->fresh &= ~suit_mask[suit];
    p->leader = winner;
}

/* -- a dealt hand's value (value_hand, _losers) --------------------------------------------------------- */

/* players._losers */
static long losers(uint64_t hand) {
    long total = 0;
    for (int suit = 0; suit < 5; suit++) {
        uint64_t mine = hand & suit_mask[suit];
        if (!mine) continue;
        uint64_t outside = suit_mask[suit] & ~hand;
        int length = count(mine);
        int run = outside ? count(mine & above[high_bit(outside)]) : length;
        if (run < length && run < (count(outside) + 2) / 3 + 1) total += length - run;
    }
    return total;
}

/* A dealt hand's value: players.HandValue's fields. */
typedef struct {
    double strength, risk;
    long losers;
    int taroks, honours;
} HandValue;

/* players.value_hand: each sum in the Python's order (so the floats are the same to the last bit). */
static void value_of(uint64_t hand, HandValue *out) {
    const uint64_t mond_skis = (1ULL << mond) | (1ULL << skis);
    uint64_t taroks = hand & tarok_mask;
    int n_taroks = count(taroks);
    double strength = (double)(n_taroks + count(hand & high_taroks)) + 3.0 * count(hand & mond_skis);
    strength += 3.0 * count(hand & kings_mask);
    double risk = 0.4 * n_taroks;
    for (; taroks; taroks &= taroks - 1) risk += tarok_risk[low_bit(taroks)];
    long lowest_led = 0;
    for (int suit = 1; suit < 5; suit++) {
        uint64_t cards = hand & suit_mask[suit];
        int length = count(cards);
        if (length == 0) {
            strength += 1.5;
            risk += 2.3;
            continue;
        }
        if (length == 1) strength += 0.5;
        else if (hand & queens[suit - 1]) strength += 1.0;
        if (rank[low_bit(cards)] > lowest_led) lowest_led = rank[low_bit(cards)];
    }
    risk += 0.2 * lowest_led;
    out->strength = strength;
    out->risk = risk;
    out->losers = n_taroks <= colour_taroks ? losers(hand) : uncounted;
    out->taroks = n_taroks;
    out->honours = (hand & (kings_mask | mond_skis)) != 0;
}

static PyObject *value_tuple(const HandValue *v) {
    return Py_BuildValue("(ddliO)", v->strength, v->risk, v->losers, v->taroks, v->honours ? Py_True : Py_False);
}

/* value_hand(hand) -> (strength, risk, losers, taroks, honours): players.value_hand's HandValue fields. */
static PyObject *py_value_hand(PyObject *self, PyObject *arg) {
    uint64_t hand = PyLong_AsUnsignedLongLong(arg);
    if (PyErr_Occurred()) return NULL;
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "_simplay.value_hand before init");
        return NULL;
    }
    HandValue v;
    value_of(hand, &v);
    return value_tuple(&v);
}

/* -- bidding wishes (players.acceptable_contracts) --------------------------------------------------------- */

/* players.STYLES[n], as ``style`` hands it over: the positive contracts' needs in the style's order (and which
 * only forehand bids: Tri), then the Berač risks, the Barvni valat's losers and the valat's strength and taroks. */
typedef struct {
    int set, n_positive;
    double need[16];
    int forehand_only[16];
    double berac_risk, odprti_risk, valat_strength;
    long valat_taroks, colour_losers;
} Style;

static Style styles[MAX_SEATS + 1];

/* style(n, needs, forehand_only, berac_risk, odprti_risk, valat_strength, valat_taroks, colour_losers) */
static PyObject *py_style(PyObject *self, PyObject *args) {
    int n;
    PyObject *needs, *fh;
    Style st = {0};
    if (!PyArg_ParseTuple(args, "iO!O!dddll", &n, &PyTuple_Type, &needs, &PyTuple_Type, &fh, &st.berac_risk,
                          &st.odprti_risk, &st.valat_strength, &st.valat_taroks, &st.colour_losers))
        return NULL;
    Py_ssize_t k = PyTuple_GET_SIZE(needs);
    if (n < 2 || n > MAX_SEATS || k > 16 || PyTuple_GET_SIZE(fh) != k) {
        PyErr_SetString(PyExc_ValueError, "_simplay.style: 2 to 4 players, at most 16 positive contracts");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        st.need[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(needs, i));
        st.forehand_only[i] = PyObject_IsTrue(PyTuple_GET_ITEM(fh, i));
        if (PyErr_Occurred()) return NULL;
    }
    st.n_positive = (int)k;
    st.set = 1;
    styles[n] = st;
    Py_RETURN_NONE;
}

/* rng.gauss(0.0, 1.0) for a random.Random: CPython's ``Random.gauss`` step for step (its ``gauss_next`` kept on the
 * generator, two ``random()`` draws when it is empty; the libm functions Python's math module calls), so the value
 * and the generator's state are the Python's (tarock/sim/compiled.py checks that on a probe at load, and has the
 * generator's own ``gauss`` drawn otherwise).  ``random``: the generator's bound ``random``.  Sets ``*ok`` to 0 on
 * an error. */
static PyObject *gauss_next_name = NULL;

static double own_gauss(PyObject *rng, PyObject *random, int *ok) {
    PyObject *next = PyObject_GetAttr(rng, gauss_next_name);
    if (!next) { *ok = 0; return 0.0; }
    double z;
    if (next != Py_None) {
        z = PyFloat_AsDouble(next);
        Py_DECREF(next);
        if (PyErr_Occurred() || PyObject_SetAttr(rng, gauss_next_name, Py_None) < 0) { *ok = 0; return 0.0; }
    } else {
        Py_DECREF(next);
        double u[2];
        for (int i = 0; i < 2; i++) {
            PyObject *drawn = PyObject_CallNoArgs(random);
            if (!drawn) { *ok = 0; return 0.0; }
            u[i] = PyFloat_AsDouble(drawn);
            Py_DECREF(drawn);
            if (PyErr_Occurred()) { *ok = 0; return 0.0; }
        }
        double x2pi = u[0] * (2.0 * 3.141592653589793);
        double g2rad = sqrt(-2.0 * log(1.0 - u[1]));
        z = cos(x2pi) * g2rad;
        PyObject *rest = PyFloat_FromDouble(sin(x2pi) * g2rad);
        if (!rest || PyObject_SetAttr(rng, gauss_next_name, rest) < 0) { Py_XDECREF(rest); *ok = 0; return 0.0; }
        Py_DECREF(rest);
    }
    return 0.0 + z * 1.0;
}

/* gauss(rng) -> rng.gauss(0.0, 1.0) drawn as ``own_gauss`` draws it (what the probe at load compares). */
static PyObject *py_gauss(PyObject *self, PyObject *rng) {
    PyObject *random = PyObject_GetAttrString(rng, "random");
    if (!random) return NULL;
    int ok = 1;
    double z = own_gauss(rng, random, &ok);
    Py_DECREF(random);
    return ok ? PyFloat_FromDouble(z) : NULL;
}

/* wishes(rng, hands, own_gauss) -> (values, wishes): per seat (in seat order, each drawing its mood from ``rng.gauss(0.0,
 * 1.0)`` as players.acceptable_contracts does, by ``own_gauss`` when ``own_gauss`` is true, else by calling it)
 * the hand's value fields and the contracts it would play as bits:
 * bit i the style's i-th positive contract, then Berač, Odprti berač, Barvni valat, Valat -- the order
 * acceptable_contracts lists their names in. */
static PyObject *py_wishes(PyObject *self, PyObject *args) {
    PyObject *rng, *hands;
    int own;
    if (!PyArg_ParseTuple(args, "OO!p", &rng, &PyList_Type, &hands, &own)) return NULL;
    int n = (int)PyList_GET_SIZE(hands);
    if (!ready || n < 2 || n > MAX_SEATS || !styles[n].set) {
        PyErr_SetString(PyExc_RuntimeError, "_simplay.wishes: no style for this table");
        return NULL;
    }
    const Style *st = &styles[n];
    PyObject *gauss = PyObject_GetAttrString(rng, own ? "random" : "gauss");
    if (!gauss) return NULL;
    PyObject *values = PyTuple_New(n), *wishes = PyTuple_New(n), *mu_sigma = Py_BuildValue("(dd)", 0.0, 1.0);
    if (!values || !wishes || !mu_sigma) goto fail;
    for (int seat = 0; seat < n; seat++) {
        uint64_t hand = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(hands, seat));
        if (PyErr_Occurred()) goto fail;
        HandValue v;
        value_of(hand, &v);
        PyObject *value = value_tuple(&v);
        if (!value) goto fail;
        PyTuple_SET_ITEM(values, seat, value);
        double mood;
        if (own) {
            int ok = 1;
            mood = own_gauss(rng, gauss, &ok);
            if (!ok) goto fail;
        } else {
            PyObject *drawn = PyObject_Call(gauss, mu_sigma, NULL);
            if (!drawn) goto fail;
            mood = PyFloat_AsDouble(drawn);
            Py_DECREF(drawn);
            if (PyErr_Occurred()) goto fail;
        }
        double strength = v.strength + mood;
        unsigned long bits = 0;
        int k = st->n_positive;
        for (int i = 0; i < k; i++)
            if (strength >= st->need[i] && (!st->forehand_only[i] || seat == 0)) bits |= 1UL << i;
        if (!v.honours) {
            double risk = v.risk - 0.3 * mood;
            if (risk <= st->berac_risk) bits |= 1UL << k;
            if (risk <= st->odprti_risk) bits |= 1UL << (k + 1);
        }
        if (v.losers <= st->colour_losers) bits |= 1UL << (k + 2);
        if (strength >= st->valat_strength && v.taroks >= st->valat_taroks) bits |= 1UL << (k + 3);
        PyObject *b = PyLong_FromUnsignedLong(bits);
        if (!b) goto fail;
        PyTuple_SET_ITEM(wishes, seat, b);
    }
    Py_DECREF(gauss);
    Py_DECREF(mu_sigma);
    return Py_BuildValue("(NN)", values, wishes);
fail:
    Py_DECREF(gauss);
    Py_XDECREF(values);
    Py_XDECREF(wishes);
    Py_XDECREF(mu_sigma);
    return NULL;
}

/* -- the table (Table.play_out) ------------------------------------------------------------------------ */

/* play(hands, leader, rules, players) -> (tricks, seats, winners): every card of the deal, chosen by the
 * players from the legal cards of ``rules`` (a kernel ``rules`` capsule).  ``players``: CardPlay's state as
 * (n, trumps, negative, is_valat, declarer, partner, called_king, save_pagat, revealed, leader, seen, fresh,
 * declarers, target), a seat or card -1 for none, ``declarers`` a mask of seats.  The tricks in play order as
 * tuples of cards, their seats as tuples, each trick's winner. */
static PyObject *py_play(PyObject *self, PyObject *args) {
    PyObject *hands_obj, *rules_obj;
    int leader;
    Players p;
    unsigned long long seen, fresh;
    if (!PyArg_ParseTuple(args, "O!iO(iiiiiiiiiiKKIi)", &PyList_Type, &hands_obj, &leader, &rules_obj, &p.n,
                          &p.trumps, &p.negative, &p.is_valat, &p.declarer, &p.partner, &p.called_king,
                          &p.save_pagat, &p.revealed, &p.leader, &seen, &fresh, &p.declarers, &p.target))
        return NULL;
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "_simplay.play before init");
        return NULL;
    }
    p.seen = seen;
    p.fresh = fresh;
    const Rules *r = api->play_rules(rules_obj);
    if (!r) return NULL;
    int n = p.n;
    if (n < 2 || n > MAX_SEATS || PyList_GET_SIZE(hands_obj) != n || leader < 0 || leader >= n) {
        PyErr_SetString(PyExc_ValueError, "_simplay.play: 2 to 4 hands and a leader among them");
        return NULL;
    }
    View v = {0};
    for (int s = 0; s < n; s++) {
        v.hands[s] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(hands_obj, s));
        if (PyErr_Occurred()) return NULL;
    }
    PyObject *tricks = PyList_New(0), *seats = PyList_New(0), *winners = PyList_New(0);
    if (!tricks || !seats || !winners) goto fail;
    int lead_seat = leader;
    while (v.hands[lead_seat]) {
        int led = -1, win = -1, order[MAX_SEATS];
        uint64_t mask = 0;
        v.len = 0;
        for (int i = 0; i < n; i++) {
            int seat = (lead_seat + i) % n;
            uint64_t legal = api->legal_mask(v.hands[seat], led, win, mask, r);
            if (!legal) {
                PyErr_SetString(PyExc_RuntimeError, "_simplay.play: a seat with no legal card");
                goto fail;
            }
            int card = choose(&p, &v, seat, legal);
            uint64_t bit = 1ULL << card;
            v.hands[seat] ^= bit;
            order[i] = seat;
            v.trick[v.len++] = card;
            if (led < 0) { led = card; win = card; }
            else {
                int cs = card_suit[card];
                if (r->trumps && cs == tarok_suit) {
                    if (card_suit[win] != tarok_suit || card > win) win = card;
                } else if (cs == card_suit[led] && card_suit[win] == cs && card > win) win = card;
            }
            mask |= bit;
        }
        int winner = order[api->trick_winner(v.trick, n, r->trumps, r->emperor)];
        PyObject *cards = PyTuple_New(n), *who = PyTuple_New(n), *w = PyLong_FromLong(winner);
        if (!cards || !who || !w) { Py_XDECREF(cards); Py_XDECREF(who); Py_XDECREF(w); goto fail; }
        for (int i = 0; i < n; i++) {
            PyTuple_SET_ITEM(cards, i, PyLong_FromLong(v.trick[i]));
            PyTuple_SET_ITEM(who, i, PyLong_FromLong(order[i]));
        }
        int bad = PyList_Append(tricks, cards) < 0 || PyList_Append(seats, who) < 0 || PyList_Append(winners, w) < 0;
        Py_DECREF(cards);
        Py_DECREF(who);
        Py_DECREF(w);
        if (bad) goto fail;
        v.taken[winner]++;
        trick_done(&p, mask, winner);
        lead_seat = winner;
    }
    return Py_BuildValue("(NNN)", tricks, seats, winners);
fail:
    Py_XDECREF(tricks);
    Py_XDECREF(seats);
    Py_XDECREF(winners);
    return NULL;
}

/* -- the deck's shuffle (random.Random.shuffle) and the deal (tarock/sim/randomplay.py's deal_cards) ----------- */

/* rng._randbelow(n) for a random.Random: CPython's ``_randbelow_with_getrandbits``, drawing from ``getrandbits``
 * (``bits``: the ints 0..64 made so far, made on first use).  -1 with an exception on an error. */
static long long randbelow(PyObject *getrandbits, PyObject **bits, unsigned long long n) {
    unsigned long long r;
    int k = 64 - __builtin_clzll(n);
    if (!bits[k] && !(bits[k] = PyLong_FromLong(k))) return -1;
    do {
        PyObject *drawn = PyObject_CallOneArg(getrandbits, bits[k]);
        if (!drawn) return -1;
        r = PyLong_AsUnsignedLongLong(drawn);
        Py_DECREF(drawn);
        if (r == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    } while (r >= n);
    return (long long)r;
}

/* shuffle(rng, deck): ``rng.shuffle(deck)`` for a ``random.Random`` -- CPython's shuffle step for step, so the
 * deck and the generator's state end as the Python leaves them (tarock/sim/compiled.py checks that on a probe at
 * load and keeps the Python's otherwise). */
static PyObject *py_shuffle(PyObject *self, PyObject *args) {
    PyObject *rng, *deck;
    if (!PyArg_ParseTuple(args, "OO!", &rng, &PyList_Type, &deck)) return NULL;
    PyObject *getrandbits = PyObject_GetAttrString(rng, "getrandbits");
    if (!getrandbits) return NULL;
    PyObject *bits[65] = {NULL};
    int ok = 1;
    for (Py_ssize_t i = PyList_GET_SIZE(deck) - 1; i >= 1; i--) {
        long long r = randbelow(getrandbits, bits, (unsigned long long)i + 1);
        if (r < 0) { ok = 0; break; }
        PyObject *a = PyList_GET_ITEM(deck, i), *b = PyList_GET_ITEM(deck, (Py_ssize_t)r);
        PyList_SET_ITEM(deck, i, b);
        PyList_SET_ITEM(deck, (Py_ssize_t)r, a);
    }
    for (int k = 0; k < 65; k++) Py_XDECREF(bits[k]);
    Py_DECREF(getrandbits);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

static PyObject *int_list(const int *cards, int len) {
    PyObject *out = PyList_New(len);
    if (!out) return NULL;
    for (int i = 0; i < len; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(cards[i]));
    return out;
}

/* deal(rng, n, per_hand, talon_size, redeal_without_tarok) -> (hands, talon, masks): randomplay.deal_cards --
 * the deck 0..53 shuffled as ``shuffle`` does, the talon its first ``talon_size`` cards in dealt order, each
 * hand the next ``per_hand`` sorted, shuffled again while a hand has no tarok when ``redeal_without_tarok`` --
 * with each hand's mask. */
static PyObject *py_deal(PyObject *self, PyObject *args) {
    PyObject *rng;
    int n, per, talon_size, redeal;
    if (!PyArg_ParseTuple(args, "Oiiip", &rng, &n, &per, &talon_size, &redeal)) return NULL;
    if (n < 1 || n > MAX_SEATS || per < 1 || talon_size < 0 || talon_size + n * per != N_CARDS || !ready) {
        PyErr_SetString(PyExc_ValueError, "_simplay.deal: the hands and the talon must take the deck");
        return NULL;
    }
    PyObject *getrandbits = PyObject_GetAttrString(rng, "getrandbits");
    if (!getrandbits) return NULL;
    PyObject *bits[65] = {NULL};
    int deck[N_CARDS], ok = 1;
    uint64_t masks[MAX_SEATS];
    for (int c = 0; c < N_CARDS; c++) deck[c] = c;
    for (;;) {
        for (int i = N_CARDS - 1; i >= 1 && ok; i--) {
            long long r = randbelow(getrandbits, bits, (unsigned long long)i + 1);
            if (r < 0) { ok = 0; break; }
            int a = deck[i];
            deck[i] = deck[r];
            deck[r] = a;
        }
        if (!ok) break;
        int misdeal = 0;
        for (int s = 0; s < n; s++) {
            masks[s] = 0;
            for (int i = 0; i < per; i++) masks[s] |= 1ULL << deck[talon_size + s * per + i];
            if (!(masks[s] & tarok_mask)) misdeal = 1;
        }
        if (!redeal || !misdeal) break;
    }
    for (int k = 0; k < 65; k++) Py_XDECREF(bits[k]);
    Py_DECREF(getrandbits);
    if (!ok) return NULL;
    PyObject *hands = PyList_New(n), *mask_list = PyList_New(n), *talon = int_list(deck, talon_size);
    if (!hands || !mask_list || !talon) goto fail;
    for (int s = 0; s < n; s++) {
        int sorted[N_CARDS], len = 0;
        for (uint64_t m = masks[s]; m; m &= m - 1) sorted[len++] = low_bit(m);
        PyObject *hand = int_list(sorted, len), *mask = PyLong_FromUnsignedLongLong(masks[s]);
        if (!hand || !mask) { Py_XDECREF(hand); Py_XDECREF(mask); goto fail; }
        PyList_SET_ITEM(hands, s, hand);
        PyList_SET_ITEM(mask_list, s, mask);
    }
    return Py_BuildValue("(NNN)", hands, talon, mask_list);
fail:
    Py_XDECREF(hands);
    Py_XDECREF(mask_list);
    Py_XDECREF(talon);
    return NULL;
}

/* -- king, talon, stash (players.call_king, pick_talon, choose_stash) ------------------------------------------ */

/* call_king(hand, rng) -> players.call_king: a king not held, of the longest suit among theirs (ties drawn
 * as ``rng.choice`` draws, CPython's ``_randbelow``), or any king when all four are held. */
static PyObject *py_call_king(PyObject *self, PyObject *args) {
    PyObject *rng;
    unsigned long long hand;
    if (!PyArg_ParseTuple(args, "KO", &hand, &rng)) return NULL;
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "_simplay.call_king before init");
        return NULL;
    }
    long missing[4], longest[4];
    int n_missing = 0, n_longest = 0, most = -1;
    for (int i = 0; i < 4; i++)
        if (!(hand >> kings[i] & 1)) missing[n_missing++] = kings[i];
    const long *pool = kings;
    int size = 4;
    if (n_missing) {
        for (int i = 0; i < n_missing; i++) {
            int len = count(hand & suit_mask[card_suit[missing[i]]]);
            if (len > most) most = len;
        }
        for (int i = 0; i < n_missing; i++)
            if (count(hand & suit_mask[card_suit[missing[i]]]) == most) longest[n_longest++] = missing[i];
        pool = longest;
        size = n_longest;
    }
    PyObject *getrandbits = PyObject_GetAttrString(rng, "getrandbits");
    if (!getrandbits) return NULL;
    PyObject *bits[65] = {NULL};
    long long r = randbelow(getrandbits, bits, (unsigned long long)size);
    for (int k = 0; k < 65; k++) Py_XDECREF(bits[k]);
    Py_DECREF(getrandbits);
    return r < 0 ? NULL : PyLong_FromLong(pool[r]);
}

/* pick_talon(talon, group) -> players.pick_talon: the group of ``group`` cards in the talon's order with the
 * most card value, then the most taroks, the first of equals. */
static PyObject *py_pick_talon(PyObject *self, PyObject *args) {
    PyObject *talon;
    int group;
    if (!PyArg_ParseTuple(args, "O!i", &PyList_Type, &talon, &group)) return NULL;
    Py_ssize_t len = PyList_GET_SIZE(talon);
    if (!ready || group < 1 || len > N_CARDS) {
        PyErr_SetString(PyExc_ValueError, "_simplay.pick_talon: a talon and a group of at least one card");
        return NULL;
    }
    int cards[N_CARDS];
    for (Py_ssize_t i = 0; i < len; i++) {
        long c = PyLong_AsLong(PyList_GET_ITEM(talon, i));
        if (PyErr_Occurred()) return NULL;
        if (c < 0 || c >= N_CARDS) {
            PyErr_SetString(PyExc_ValueError, "_simplay.pick_talon: not a card");
            return NULL;
        }
        cards[i] = (int)c;
    }
    Py_ssize_t best = -1, best_len = 0;
    long best_points = -1, best_taroks = -1;
    for (Py_ssize_t i = 0; i < len; i += group) {
        Py_ssize_t end = i + group < len ? i + group : len;
        long points = 0, taroks = 0;
        for (Py_ssize_t j = i; j < end; j++) {
            points += card_points[cards[j]];
            taroks += (tarok_mask >> cards[j]) & 1;
        }
        if (points > best_points || (points == best_points && taroks > best_taroks)) {
            best = i;
            best_len = end - i;
            best_points = points;
            best_taroks = taroks;
        }
    }
    PyObject *out = PyTuple_New(best < 0 ? 0 : best_len);
    if (!out) return NULL;
    for (Py_ssize_t j = 0; best >= 0 && j < best_len; j++) PyTuple_SET_ITEM(out, j, PyLong_FromLong(cards[best + j]));
    return out;
}

/* choose_stash(hand, k, called_king) -> players.choose_stash: ``k`` cards to lay away (a mask); ``called_king``
 * -1 for none. */
static PyObject *py_choose_stash(PyObject *self, PyObject *args) {
    unsigned long long hand;
    int k, called_king;
    if (!PyArg_ParseTuple(args, "Kii", &hand, &k, &called_king)) return NULL;
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "_simplay.choose_stash before init");
        return NULL;
    }
    uint64_t spare = hand & plain_mask & ~kings_mask, chosen = 0;
    if (count(spare) <= k) {
        uint64_t taroks = hand & tarok_mask & ~trula_mask;
        chosen = spare;
        while (count(chosen) < k && taroks) {
            chosen |= taroks & -taroks;
            taroks &= taroks - 1;
        }
        if (count(chosen) < k) {
            PyErr_SetString(PyExc_ValueError, "_simplay.choose_stash: too few cards may be laid away");
            return NULL;
        }
        return PyLong_FromUnsignedLongLong(chosen);
    }
    int called_suit = called_king >= 0 && called_king < N_CARDS ? card_suit[called_king] : -1;
    int order[4], keys[4][3];
    for (int i = 0; i < 4; i++) {  /* sorted(range(1, 5), key=suit_order): a stable insertion sort */
        int suit = i + 1, at = i;
        int key[3] = {(hand & kings_mask & suit_mask[suit]) != 0, suit == called_suit, count(spare & suit_mask[suit])};
        while (at > 0 && (keys[at - 1][0] > key[0] || (keys[at - 1][0] == key[0] && (keys[at - 1][1] > key[1]
                          || (keys[at - 1][1] == key[1] && keys[at - 1][2] > key[2]))))) {
            order[at] = order[at - 1];
            for (int j = 0; j < 3; j++) keys[at][j] = keys[at - 1][j];
            at--;
        }
        order[at] = suit;
        for (int j = 0; j < 3; j++) keys[at][j] = key[j];
    }
    for (int i = 0; i < 4; i++) {
        uint64_t cards = spare & suit_mask[order[i]];
        while (cards && count(chosen) < k) {
            int card = highest(cards, smear_key);
            chosen |= 1ULL << card;
            cards &= ~(1ULL << card);
        }
    }
    return PyLong_FromUnsignedLongLong(chosen);
}

/* -- the record's trick texts (tarock/sim/record_text.py's TrickTexts) ------------------------------------------ */

/* texts(tricks, seats, table) -> [[table[seat][card] for card, seat in zip(trick, its seats)] for each trick]:
 * ``tricks`` and ``seats`` lists of equal tuples of ints, ``table`` a tuple per seat of each card's text. */
static PyObject *py_texts(PyObject *self, PyObject *args) {
    PyObject *tricks, *seats, *table;
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyList_Type, &tricks, &PyList_Type, &seats, &PyTuple_Type, &table))
        return NULL;
    Py_ssize_t nt = PyList_GET_SIZE(tricks), np = PyTuple_GET_SIZE(table);
    if (PyList_GET_SIZE(seats) != nt) goto bad;
    PyObject *out = PyList_New(nt);
    if (!out) return NULL;
    for (Py_ssize_t t = 0; t < nt; t++) {
        PyObject *cards = PyList_GET_ITEM(tricks, t), *who = PyList_GET_ITEM(seats, t);
        if (!PyTuple_Check(cards) || !PyTuple_Check(who) || PyTuple_GET_SIZE(cards) != PyTuple_GET_SIZE(who)) {
            Py_DECREF(out);
            goto bad;
        }
        Py_ssize_t len = PyTuple_GET_SIZE(cards);
        PyObject *row = PyList_New(len);
        if (!row) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, t, row);
        for (Py_ssize_t i = 0; i < len; i++) {
            long card = PyLong_AsLong(PyTuple_GET_ITEM(cards, i)), seat = PyLong_AsLong(PyTuple_GET_ITEM(who, i));
            if (PyErr_Occurred()) { Py_DECREF(out); return NULL; }
            if (seat < 0 || seat >= np) { Py_DECREF(out); goto bad; }
            PyObject *texts = PyTuple_GET_ITEM(table, seat);
            if (!PyTuple_Check(texts) || card < 0 || card >= PyTuple_GET_SIZE(texts)) { Py_DECREF(out); goto bad; }
            PyObject *text = PyTuple_GET_ITEM(texts, card);
            Py_INCREF(text);
            PyList_SET_ITEM(row, i, text);
        }
    }
    return out;
bad:
    PyErr_SetString(PyExc_ValueError, "_simplay.texts: tricks and seats of equal tuples, a text for each card and seat");
    return NULL;
}

/* -- loading --------------------------------------------------------------------------------------------- */

static int read_longs(PyObject *tables, const char *name, long *out, Py_ssize_t size) {
    PyObject *seq = sized_table(tables, name, size);
    if (!seq) return -1;
    for (Py_ssize_t i = 0; i < size; i++) out[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
    Py_DECREF(seq);
    return PyErr_Occurred() ? -1 : 0;
}

static int read_masks(PyObject *tables, const char *name, uint64_t *out, Py_ssize_t size) {
    PyObject *seq = sized_table(tables, name, size);
    if (!seq) return -1;
    for (Py_ssize_t i = 0; i < size; i++) out[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
    Py_DECREF(seq);
    return PyErr_Occurred() ? -1 : 0;
}

static int read_doubles(PyObject *tables, const char *name, double *out, Py_ssize_t size) {
    PyObject *seq = sized_table(tables, name, size);
    if (!seq) return -1;
    for (Py_ssize_t i = 0; i < size; i++) out[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
    Py_DECREF(seq);
    return PyErr_Occurred() ? -1 : 0;
}

static int read_long(PyObject *tables, const char *name, long *out) {
    PyObject *v = PyMapping_GetItemString(tables, name);
    if (!v) return -1;
    *out = PyLong_AsLong(v);
    Py_DECREF(v);
    return PyErr_Occurred() ? -1 : 0;
}

static int read_one(PyObject *tables, const char *name, uint64_t *out) {
    PyObject *v = PyMapping_GetItemString(tables, name);
    if (!v) return -1;
    *out = PyLong_AsUnsignedLongLong(v);
    Py_DECREF(v);
    return PyErr_Occurred() ? -1 : 0;
}

/* init(tables): the card tables (tarock.cards) and the players' tables (tarock.sim.players: VALUE_KEY,
 * SMEAR_KEY, RANK, TAROK_RISK, HIGH_TAROKS, QUEEN_BITS, COLOUR_TAROKS, UNCOUNTED), by name from one mapping; and the kernel's API (it must be loaded and initialised first). */
static PyObject *py_init(PyObject *self, PyObject *tables) {
    long suits[N_CARDS], points[N_CARDS];
    uint64_t t_m, p_m, tr_m, k_m, pg, mo, sk, ts;
    if (read_longs(tables, "CARD_SUIT", suits, N_CARDS) < 0 || read_longs(tables, "CARD_POINTS", points, N_CARDS) < 0
        || read_masks(tables, "ABOVE", above, N_CARDS) < 0 || read_masks(tables, "SUIT_MASKS", suit_mask, 5) < 0
        || read_one(tables, "TAROK_MASK", &t_m) < 0 || read_one(tables, "PLAIN_MASK", &p_m) < 0
        || read_one(tables, "TRULA_MASK", &tr_m) < 0 || read_one(tables, "KINGS_MASK", &k_m) < 0
        || read_one(tables, "PAGAT", &pg) < 0 || read_one(tables, "MOND", &mo) < 0 || read_one(tables, "SKIS", &sk) < 0
        || read_one(tables, "TAROK", &ts) < 0 || read_longs(tables, "VALUE_KEY", value_key, N_CARDS) < 0
        || read_longs(tables, "SMEAR_KEY", smear_key, N_CARDS) < 0 || read_longs(tables, "RANK", rank, N_CARDS) < 0
        || read_doubles(tables, "TAROK_RISK", tarok_risk, 22) < 0 || read_one(tables, "HIGH_TAROKS", &high_taroks) < 0
        || read_masks(tables, "QUEEN_BITS", queens, 4) < 0 || read_long(tables, "COLOUR_TAROKS", &colour_taroks) < 0
        || read_long(tables, "UNCOUNTED", &uncounted) < 0 || read_longs(tables, "KINGS", kings, 4) < 0)
        return NULL;
    for (int c = 0; c < N_CARDS; c++) {
        card_suit[c] = (uint8_t)suits[c];
        card_points[c] = (uint8_t)points[c];
    }
    tarok_mask = t_m;
    plain_mask = p_m;
    trula_mask = tr_m;
    kings_mask = k_m;
    pagat = (int)pg;
    mond = (int)mo;
    skis = (int)sk;
    tarok_suit = (int)ts;
    const KernelApi *k = kernel_api_checked((const KernelApi *)PyCapsule_Import(KERNEL_API_CAPSULE, 0),
                                            "tarock.sim._simplay");
    if (!k) return NULL;
    if (!gauss_next_name && !(gauss_next_name = PyUnicode_InternFromString("gauss_next"))) return NULL;
    api = k;
    ready = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"init", py_init, METH_O, "Load the card tables and the players' keys by name; bind the kernel's API."},
    {"value_hand", py_value_hand, METH_O, "A dealt hand's HandValue fields: (strength, risk, losers, taroks, honours)."},
    {"shuffle", py_shuffle, METH_VARARGS, "random.Random.shuffle(deck), drawing from the generator's getrandbits."},
    {"play", py_play, METH_VARARGS, "Every card of a deal, chosen by the heuristic players: (tricks, seats, winners)."},
    {"deal", py_deal, METH_VARARGS, "randomplay.deal_cards, with each hand's mask: (hands, talon, masks)."},
    {"style", py_style, METH_VARARGS, "Load one table size's bidding thresholds (players.STYLES)."},
    {"call_king", py_call_king, METH_VARARGS, "players.call_king(hand, rng), drawing as rng.choice draws."},
    {"pick_talon", py_pick_talon, METH_VARARGS, "players.pick_talon(talon, group)."},
    {"choose_stash", py_choose_stash, METH_VARARGS, "players.choose_stash(hand, k, called_king or -1)."},
    {"texts", py_texts, METH_VARARGS, "The tricks' texts: each card's text for the seat that played it."},
    {"gauss", py_gauss, METH_O, "rng.gauss(0.0, 1.0), drawn in C as CPython's Random.gauss draws it."},
    {"wishes", py_wishes, METH_VARARGS, "Each seat's hand value and acceptable contracts as bits: (values, wishes)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_simplay", "The simulator's card play in C.", -1, methods};

PyMODINIT_FUNC PyInit__simplay(void) { return PyModule_Create(&module); }
