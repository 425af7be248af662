/*
 * The score of a clean Königrufen deal in C: tarock.rules.koenigrufen.replay.outcome's facts and
 * tarock.rules.koenigrufen.scoring.score_deal without offenders, for the simulator's check of a clean deal
 * (tarock.accel.kr_lane).  tarock.accel.kr_scorer wraps it.
 *
 * This is an accelerator, not a second rulebook: tarock.rules.koenigrufen (contracts.py, replay.py,
 * scoring.py) is the reference, and this module is a projection of it.  It holds no number of the rules: the
 * bonuses' values, the birds' cards and tricks, the Trull and the kings, the components' order, each card's
 * score in the table's counting and every value and switch of a contract under some options come from the
 * reference's tables, by name (``init`` and ``plan``; the names it reads are exported: ``BONUSES``,
 * ``TARGETS``, ``KINDS``, ``TALONS``, ``TIES``, ``JUNGFRAU``, ``GIFTS``, ``SIDES``, ``PLAN_FIELDS``).  What
 * it keeps is the reference's arithmetic: who pays whom (scoring._pairs, _settle), which items a deal has and
 * in which order (_played, _bonus_items, _trischaken_items, _concession_item, _lines), and the facts they
 * read (replay.outcome, _talon_shares, _talon_gifts, _birds, _king_took_last).  ``score`` answers for what it
 * implements and returns None for anything else, so the caller scores that deal with the reference.
 * tests/accel/test_kr_score.py checks both give the same lines and totals.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define N_SEATS 4
#define N_CARDS 54
#define N_TRICKS 12
#define MAX_ITEMS 16
#define MAX_PAYMENTS 4

#define ENUM_ID(id, name) id,
#define ENUM_NAME(id, name) name,

/* The bonuses (``BONUSES``), as scoring.BONUS_VALUES and contracts.BONUS_ORDER name them; a kontra target
 * (``TARGETS``) is a bonus or the game. */
#define BONUS_LIST(X) \
    X(B_TRULL, "trull") X(B_KINGS, "vier_koenige") X(B_PAGAT, "pagat_ultimo") X(B_UHU, "uhu") \
    X(B_KAKADU, "kakadu") X(B_QUAPIL, "quapil") X(B_KING_ULTIMO, "king_ultimo") X(B_VALAT, "valat") \
    X(T_GAME, "game")
enum { BONUS_LIST(ENUM_ID) N_TARGETS };
#define N_BONUSES T_GAME
static const char *const target_names[N_TARGETS] = {BONUS_LIST(ENUM_NAME)};

/* How a contract is scored (``KINDS``): on card points with bonuses, a negative game per declarer,
 * Trischaken. */
#define KIND_LIST(X) \
    X(KIND_POSITIVE, "positive") X(KIND_NEGATIVE, "negative") X(KIND_TRISCHAKEN, "trischaken")
enum { KIND_LIST(ENUM_ID) N_KINDS };
static const char *const kind_names[N_KINDS] = {KIND_LIST(ENUM_NAME)};

/* What becomes of the talon (``TALONS``: contracts.HALF, SIX, CLOSED, NONE, GIFTS). */
#define TALON_LIST(X) \
    X(TALON_HALF, "half") X(TALON_SIX, "six") X(TALON_CLOSED, "closed") X(TALON_NONE, "none") \
    X(TALON_GIFTS, "gifts")
enum { TALON_LIST(ENUM_ID) N_TALONS };
static const char *const talon_names[N_TALONS] = {TALON_LIST(ENUM_NAME)};

/* The values of the options trischaken_ties, trischaken_jungfrau and trischaken_talon a plan codes. */
#define TIES_LIST(X) X(TIES_SHARE, "share") X(TIES_EARLIEST, "earliest")
enum { TIES_LIST(ENUM_ID) N_TIES };
static const char *const ties_names[N_TIES] = {TIES_LIST(ENUM_NAME)};
#define JUNGFRAU_LIST(X) X(JUNGFRAU_POT, "pot") X(JUNGFRAU_DOUBLE, "double")
enum { JUNGFRAU_LIST(ENUM_ID) N_JUNGFRAU };
static const char *const jungfrau_names[N_JUNGFRAU] = {JUNGFRAU_LIST(ENUM_NAME)};
#define GIFTS_LIST(X) X(GIFTS_FIRST_SIX, "first_six") X(GIFTS_LAST_TRICK, "last_trick")
enum { GIFTS_LIST(ENUM_ID) N_GIFTS };
static const char *const gifts_names[N_GIFTS] = {GIFTS_LIST(ENUM_NAME)};

/* A side (``SIDES``, as tarock.facts names them; None for none). */
enum { SIDE_NONE, SIDE_DECLARER, SIDE_OPPONENTS, N_SIDES };
static const char *const side_names[N_SIDES] = {NULL, "declarer", "opponents"};

/* A contract under some options (``PLAN_FIELDS``, each an int; tarock.accel.kr_scorer.plan_values fills them
 * from the reference by these names), besides ``counted`` (the counted bonuses in the reference's order) and
 * ``card_scores`` (each card's card_score). */
#define PLAN_LIST(X) \
    X(kind) X(value) X(win) X(tricks) X(talon) X(solo) X(lost_double) X(valat_double) X(kontra_in_score) \
    X(valat_keeps_announced) X(concession_pays_announced) X(king_ultimo_by_party) X(valat_takes_game_kontra) \
    X(trischaken_ties) X(trischaken_jungfrau) X(trischaken_talon) X(valat_per_game) X(valat_silent) \
    X(valat_full)
#define PLAN_MEMBER(name) long name;
#define PLAN_NAME(name) #name,
typedef struct {
    PLAN_LIST(PLAN_MEMBER)
    int n_counted, counted[N_BONUSES];
    long card_scores[N_CARDS];
} Plan;
static const char *const plan_names[] = {PLAN_LIST(PLAN_NAME)};
#define N_PLAN_FIELDS ((int)(sizeof(plan_names) / sizeof(plan_names[0])))
#define PLAN_CAPSULE "tarock.accel._krscore.Plan"

/* The reference's tables (``init``). */
static int ready;
static long silent_value[N_BONUSES], full_value[N_BONUSES], component_of[N_TARGETS];
static int bird_card[N_BONUSES], bird_trick[N_BONUSES];
static uint64_t trull_mask, kings_mask;

typedef struct {
    int component, n;
    int payer[MAX_PAYMENTS], payee[MAX_PAYMENTS];
    long amount[MAX_PAYMENTS];
} Item;

typedef struct {
    const Plan *p;
    int side[N_SEATS];              /* each seat's side */
    int announced[N_BONUSES];       /* the announcing side of each bonus, SIDE_NONE if not announced */
    long kontra[N_TARGETS];         /* positive games: each target's multiplier (1: none) */
    long pair_kontra[N_SEATS][N_SEATS];  /* negative games: [opponent][declarer] */
    Item items[MAX_ITEMS];
    int n_items;
} Deal;

/* -- reading Python values ------------------------------------------------------------------------------ */

static int get_long(PyObject *mapping, const char *name, long *out) {
    PyObject *v = PyMapping_GetItemString(mapping, name);
    if (!v) return -1;
    *out = PyLong_AsLong(v);
    Py_DECREF(v);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int get_longs(PyObject *mapping, const char *name, long *out, int count) {
    /* ``count`` whole numbers from a sequence ``mapping[name]``. */
    PyObject *v = PyMapping_GetItemString(mapping, name);
    if (!v) return -1;
    PyObject *seq = PySequence_Fast(v, name);
    Py_DECREF(v);
    if (!seq) return -1;
    int rc = 0;
    if (PySequence_Fast_GET_SIZE(seq) != count) {
        PyErr_Format(PyExc_ValueError, "%s holds %zd values, not %d", name, PySequence_Fast_GET_SIZE(seq),
                     count);
        rc = -1;
    }
    for (int i = 0; rc == 0 && i < count; i++) {
        out[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (out[i] == -1 && PyErr_Occurred()) rc = -1;
    }
    Py_DECREF(seq);
    return rc;
}

/* init(tables): ``silent`` and ``full`` (per bonus of ``BONUSES`` but the valat, its value silent and
 * announced), ``components`` (per target of ``TARGETS``, the index of its component in the breakdown's
 * order), ``bird_cards`` and ``bird_tricks`` (per bonus, the bird's card and 1-based trick; -1 and 0 for
 * the others), ``trull_mask`` and ``kings_mask``. */
static PyObject *py_init(PyObject *self, PyObject *tables) {
    long cards[N_BONUSES], tricks[N_BONUSES], trull, kings;
    ready = 0;
    if (get_longs(tables, "silent", silent_value, N_BONUSES) < 0
        || get_longs(tables, "full", full_value, N_BONUSES) < 0
        || get_longs(tables, "components", component_of, N_TARGETS) < 0
        || get_longs(tables, "bird_cards", cards, N_BONUSES) < 0
        || get_longs(tables, "bird_tricks", tricks, N_BONUSES) < 0
        || get_long(tables, "trull_mask", &trull) < 0 || get_long(tables, "kings_mask", &kings) < 0)
        return NULL;
    for (int b = 0; b < N_BONUSES; b++) {
        if (cards[b] < -1 || cards[b] >= N_CARDS || tricks[b] < 0 || tricks[b] > N_TRICKS) {
            PyErr_SetString(PyExc_ValueError, "a bird's card or trick is out of range");
            return NULL;
        }
        bird_card[b] = (int)cards[b];
        bird_trick[b] = (int)tricks[b];
    }
    trull_mask = (uint64_t)trull;
    kings_mask = (uint64_t)kings;
    ready = 1;
    Py_RETURN_NONE;
}

/* plan(mapping) -> a capsule of the contract under some options, each of ``PLAN_FIELDS`` read by name. */
static PyObject *py_plan(PyObject *self, PyObject *mapping) {
    Plan *p = PyMem_Calloc(1, sizeof(Plan));
    if (!p) return PyErr_NoMemory();
    long *fields[] = {
#define PLAN_ADDR(name) &p->name,
        PLAN_LIST(PLAN_ADDR)
    };
    long counted[N_BONUSES];
    for (int i = 0; i < N_PLAN_FIELDS; i++)
        if (get_long(mapping, plan_names[i], fields[i]) < 0) goto fail;
    if (get_longs(mapping, "card_scores", p->card_scores, N_CARDS) < 0) goto fail;
    PyObject *c = PyMapping_GetItemString(mapping, "counted");
    if (!c) goto fail;
    Py_ssize_t n = PySequence_Size(c);
    Py_DECREF(c);
    if (n < 0) goto fail;
    if (n > N_BONUSES) { PyErr_SetString(PyExc_ValueError, "too many counted bonuses"); goto fail; }
    if (get_longs(mapping, "counted", counted, (int)n) < 0) goto fail;
    for (int i = 0; i < n; i++) {
        if (counted[i] < 0 || counted[i] >= N_BONUSES) {
            PyErr_SetString(PyExc_ValueError, "not a bonus");
            goto fail;
        }
        p->counted[i] = (int)counted[i];
    }
    p->n_counted = (int)n;
    if (p->kind < 0 || p->kind >= N_KINDS || p->talon < 0 || p->talon >= N_TALONS) {
        PyErr_SetString(PyExc_ValueError, "a plan's kind or talon is out of range");
        goto fail;
    }
    PyObject *capsule = PyCapsule_New(p, PLAN_CAPSULE, NULL);
    if (!capsule) goto fail;
    return capsule;
fail:
    PyMem_Free(p);
    return NULL;
}

/* -- the facts (replay.outcome) ------------------------------------------------------------------------ */

static long card_score(const Plan *p, uint64_t mask) {
    long s = 0;
    while (mask) {
        s += p->card_scores[__builtin_ctzll(mask)];
        mask &= mask - 1;
    }
    return s;
}

static int holder(uint64_t target, uint64_t ours, uint64_t theirs) {
    if ((ours & target) == target) return SIDE_DECLARER;
    if ((theirs & target) == target) return SIDE_OPPONENTS;
    return SIDE_NONE;
}

static inline int other(int side) { return side == SIDE_DECLARER ? SIDE_OPPONENTS : SIDE_DECLARER; }

/* -- items (scoring) ----------------------------------------------------------------------------------- */

static Item *new_item(Deal *d, int target) {
    Item *it = &d->items[d->n_items++];
    it->component = (int)component_of[target];
    it->n = 0;
    return it;
}

static void pay(Item *it, int payer, int payee, long amount) {
    it->payer[it->n] = payer;
    it->payee[it->n] = payee;
    it->amount[it->n] = amount;
    it->n++;
}

static void settle(Deal *d, int target, int winning, long amount) {
    /* scoring._settle with _pairs: two against two pair off, a lone player meets each of the three others. */
    int win[N_SEATS], lose[N_SEATS], nw = 0, nl = 0;
    for (int s = 0; s < N_SEATS; s++) {
        if (d->side[s] == winning) win[nw++] = s;
        else lose[nl++] = s;
    }
    Item *it = new_item(d, target);
    if (nw == nl) {
        for (int i = 0; i < nw; i++) pay(it, lose[i], win[i], amount);
    } else if (nw == 1) {
        for (int i = 0; i < nl; i++) pay(it, lose[i], win[0], amount);
    } else {
        for (int i = 0; i < nw; i++) pay(it, lose[0], win[i], amount);
    }
}

static long kontra_of(const Deal *d, int target) {
    return d->p->kontra_in_score ? d->kontra[target] : 1;
}

static void bonus_item(Deal *d, int b, int winning, int announced) {
    /* scoring._bonus_item: the announced or silent value × its kontra, ×2 in solo games. */
    long base = announced ? full_value[b] : silent_value[b];
    long k = announced ? kontra_of(d, b) : 1;
    settle(d, b, winning, base * k * (d->p->solo ? 2 : 1));
}

static void bonus_items(Deal *d, const int *made, int announced_only) {
    /* scoring._bonus_items: an announcement scores made or failed, a silent bonus only when made. */
    const Plan *p = d->p;
    for (int i = 0; i < p->n_counted; i++) {
        int b = p->counted[i];
        if (b == B_VALAT) continue;
        int by = d->announced[b];
        if (by != SIDE_NONE) bonus_item(d, b, made[b] == by ? by : other(by), 1);
        else if (made[b] != SIDE_NONE && !announced_only) bonus_item(d, b, made[b], 0);
    }
}

static void valat_item(Deal *d, int winning, int announced) {
    /* scoring._valat_item */
    const Plan *p = d->p;
    long base = (announced ? p->valat_full : p->valat_silent) * (p->valat_per_game ? p->value : 1);
    long k = announced ? kontra_of(d, B_VALAT) : 1;
    long game_k = p->valat_takes_game_kontra ? kontra_of(d, T_GAME) : 1;
    long twice = winning != SIDE_DECLARER ? p->valat_double : 1;
    settle(d, B_VALAT, winning, base * k * game_k * twice);
}

static int counts(const Plan *p, int bonus) {
    for (int i = 0; i < p->n_counted; i++) if (p->counted[i] == bonus) return 1;
    return 0;
}

/* -- score --------------------------------------------------------------------------------------------- */

static int read_ints(PyObject *seq, int *out, int count) {
    /* ``count`` small ints of a list or tuple; -1 for anything else. */
    if (!(PyList_Check(seq) || PyTuple_Check(seq)) || PySequence_Fast_GET_SIZE(seq) != count) return -1;
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (int i = 0; i < count; i++) {
        long v = PyLong_AsLong(items[i]);
        if (v == -1 && PyErr_Occurred()) { PyErr_Clear(); return -1; }
        if (v < -1 || v >= N_CARDS) return -1;
        out[i] = (int)v;
    }
    return 0;
}

static Py_ssize_t seq_size(PyObject *seq) {
    return PyList_Check(seq) || PyTuple_Check(seq) ? PySequence_Fast_GET_SIZE(seq) : -1;
}

/* score(plan, tricks, seats, winners, declarers, partner, called_king, king_in_talon, talon, pick, stash,
 *       conceded, announced, kontra, pair_kontra)
 *   -> (won, scores, lines) or None.
 * A clean deal (no offender) as the kernel replayed it: ``tricks`` each trick's cards in play order,
 * ``seats`` who played them, ``winners`` each trick's winner (all empty when ``conceded``); ``declarers`` a
 * tuple of seats (empty in Trischaken), ``partner`` and ``called_king`` -1 for none; ``talon`` the six cards
 * in dealt order, ``pick`` and ``stash`` masks.  ``announced`` holds (bonus, side) pairs (indexes of
 * ``BONUSES`` and ``SIDES``), ``kontra`` (target, multiplier) pairs of a positive game, ``pair_kontra``
 * (opponent, declarer, multiplier) triples of a negative one.  ``won`` is 1, 0 or -1 (None), ``scores`` each
 * seat's total, ``lines`` the breakdown's (seat, component, value) in the reference's order.  None for a deal
 * this module does not implement (a record stopping early, several bidders of a positive game ...): the
 * caller scores it with the reference. */
static PyObject *py_score(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 15) {
        PyErr_SetString(PyExc_TypeError, "score takes 15 arguments");
        return NULL;
    }
    const Plan *p = PyCapsule_GetPointer(args[0], PLAN_CAPSULE);
    if (!p) return NULL;
    if (!ready) Py_RETURN_NONE;
    PyObject *tricks = args[1], *seats = args[2], *winners_obj = args[3], *declarers_obj = args[4];
    long partner = PyLong_AsLong(args[5]), king = PyLong_AsLong(args[6]);
    long king_in_talon = PyLong_AsLong(args[7]);
    uint64_t pick = PyLong_AsUnsignedLongLong(args[9]), stash = PyLong_AsUnsignedLongLong(args[10]);
    int conceded = PyObject_IsTrue(args[11]);
    if (PyErr_Occurred()) return NULL;
    PyObject *announced = args[12], *kontra = args[13], *pair_kontra = args[14];
    Py_ssize_t nt = seq_size(tricks), nd = seq_size(declarers_obj);
    if (nt < 0 || seq_size(seats) != nt || seq_size(winners_obj) != nt || nd < 0 || nd > N_SEATS
        || partner < -1 || partner >= N_SEATS || king < -1 || king >= N_CARDS
        || seq_size(announced) < 0 || seq_size(kontra) < 0 || seq_size(pair_kontra) < 0)
        Py_RETURN_NONE;
    int talon[6], declarers[N_SEATS], winners[N_TRICKS], cards[N_TRICKS][N_SEATS], who[N_TRICKS][N_SEATS];
    if (read_ints(args[8], talon, 6) < 0 || read_ints(declarers_obj, declarers, (int)nd) < 0) Py_RETURN_NONE;
    /* a clean deal is played out (or conceded, with nothing played) */
    if (conceded ? nt != 0 || nd != 1 : nt != N_TRICKS) Py_RETURN_NONE;
    if (nt && read_ints(winners_obj, winners, (int)nt) < 0) Py_RETURN_NONE;
    for (int t = 0; t < nt; t++)
        if (read_ints(PySequence_Fast_GET_ITEM(tricks, t), cards[t], N_SEATS) < 0
            || read_ints(PySequence_Fast_GET_ITEM(seats, t), who[t], N_SEATS) < 0 || winners[t] < 0
            || winners[t] >= N_SEATS)
            Py_RETURN_NONE;
    for (int i = 0; i < nd; i++) if (declarers[i] < 0 || declarers[i] >= N_SEATS) Py_RETURN_NONE;
    if (p->kind != KIND_TRISCHAKEN ? nd == 0 : nd != 0) Py_RETURN_NONE;
    if (p->kind == KIND_POSITIVE && nd != 1) Py_RETURN_NONE;

    Deal d;
    d.p = p;
    d.n_items = 0;
    for (int s = 0; s < N_SEATS; s++) d.side[s] = s == partner ? SIDE_DECLARER : SIDE_OPPONENTS;
    for (int i = 0; i < nd; i++) d.side[declarers[i]] = SIDE_DECLARER;
    for (int b = 0; b < N_BONUSES; b++) d.announced[b] = SIDE_NONE;
    for (int t = 0; t < N_TARGETS; t++) d.kontra[t] = 1;
    for (int a = 0; a < N_SEATS; a++) for (int b = 0; b < N_SEATS; b++) d.pair_kontra[a][b] = 1;
    PyObject **items = PySequence_Fast_ITEMS(announced);
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(announced); i++) {
        int pair[2];
        if (read_ints(items[i], pair, 2) < 0 || pair[0] < 0 || pair[0] >= N_BONUSES || pair[1] <= SIDE_NONE
            || pair[1] >= N_SIDES || d.announced[pair[0]] != SIDE_NONE)
            Py_RETURN_NONE;
        d.announced[pair[0]] = pair[1];
    }
    items = PySequence_Fast_ITEMS(kontra);
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(kontra); i++) {
        int pair[2];
        if (read_ints(items[i], pair, 2) < 0 || pair[0] < 0 || pair[0] >= N_TARGETS || pair[1] < 1)
            Py_RETURN_NONE;
        d.kontra[pair[0]] = pair[1];
    }
    items = PySequence_Fast_ITEMS(pair_kontra);
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(pair_kontra); i++) {
        int triple[3];
        if (read_ints(items[i], triple, 3) < 0 || triple[0] < 0 || triple[0] >= N_SEATS || triple[1] < 0
            || triple[1] >= N_SEATS || triple[2] < 1)
            Py_RETURN_NONE;
        d.pair_kontra[triple[0]][triple[1]] = triple[2];
    }

    /* the piles, the tricks taken and the talon (replay.outcome) */
    uint64_t piles[N_SEATS] = {0}, tmask = 0;
    int taken[N_SEATS] = {0};
    for (int i = 0; i < 6; i++) {
        if (talon[i] < 0) Py_RETURN_NONE;
        tmask |= 1ULL << talon[i];
    }
    for (int t = 0; t < nt; t++) {
        taken[winners[t]]++;
        for (int i = 0; i < N_SEATS; i++) {
            if (cards[t][i] < 0 || who[t][i] < 0 || who[t][i] >= N_SEATS) Py_RETURN_NONE;
            piles[winners[t]] |= 1ULL << cards[t][i];
        }
    }
    long value = p->value;
    int won = -1;
    if (conceded) {
        /* scoring._concession_item: a lone loss, V to each opponent, plus what the declarer's side
         * announced */
        long amount = value;
        if (p->concession_pays_announced)
            for (int b = 0; b < N_BONUSES; b++) {
                if (d.announced[b] != SIDE_DECLARER) continue;
                if (b == B_VALAT) amount += p->valat_full * (p->valat_per_game ? value : 1) - value;
                else amount += full_value[b];
            }
        Item *it = new_item(&d, T_GAME);
        for (int s = 0; s < N_SEATS; s++) if (s != declarers[0]) pay(it, declarers[0], s, amount);
        won = 0;
    } else if (p->kind == KIND_TRISCHAKEN) {
        /* replay._talon_gifts, scoring._trischaken_losers and _trischaken_items */
        if (p->trischaken_talon == GIFTS_FIRST_SIX) {
            for (int i = 0; i < 6 && i < nt; i++) piles[winners[i]] |= 1ULL << talon[i];
        } else if (p->trischaken_talon == GIFTS_LAST_TRICK) {
            if (nt == N_TRICKS) piles[winners[nt - 1]] |= tmask;
        } else Py_RETURN_NONE;
        long scores[N_SEATS], top = -1;
        for (int s = 0; s < N_SEATS; s++) {
            scores[s] = card_score(p, piles[s]);
            if (scores[s] > top) top = scores[s];
        }
        int tied[N_SEATS], n_tied = 0, losers[N_SEATS] = {0}, n_losers;
        for (int s = 0; s < N_SEATS; s++) if (scores[s] == top) tied[n_tied++] = s;
        n_losers = p->trischaken_ties == TIES_EARLIEST || tied[0] == 0 ? 1 : n_tied;
        for (int i = 0; i < n_losers; i++) losers[tied[i]] = 1;
        int payees[N_SEATS], n_payees = 0, virgin[N_SEATS] = {0}, n_virgins = 0;
        for (int s = 0; s < N_SEATS; s++)
            if (!losers[s]) {
                payees[n_payees++] = s;
                if (taken[s] == 0) { virgin[s] = 1; n_virgins++; }
            }
        for (int i = 0; i < n_losers; i++) {
            int loser = tied[i];
            long base = value * (scores[loser] >= p->win ? 2 : 1) * (loser == 0 ? 2 : 1);
            Item *it = new_item(&d, T_GAME);
            if (!n_virgins) {
                for (int j = 0; j < n_payees; j++) pay(it, loser, payees[j], base);
            } else if (p->trischaken_jungfrau == JUNGFRAU_DOUBLE) {
                for (int j = 0; j < n_payees; j++)
                    pay(it, loser, payees[j], base * (virgin[payees[j]] ? 2 : 1));
            } else if (p->trischaken_jungfrau == JUNGFRAU_POT) {
                long pot = base * n_payees, share = (pot + n_virgins - 1) / n_virgins;
                for (int j = 0; j < n_payees; j++) if (virgin[payees[j]]) pay(it, loser, payees[j], share);
            } else Py_RETURN_NONE;
        }
    } else if (p->kind == KIND_NEGATIVE) {
        /* scoring._negative_item per declarer: each pair with its own kontra */
        for (int i = 0; i < nd; i++) {
            int dcl = declarers[i], ok = taken[dcl] == p->tricks;
            Item *it = new_item(&d, T_GAME);
            for (int s = 0; s < N_SEATS; s++) {
                if (s == dcl) continue;
                long amount = value * (p->kontra_in_score ? d.pair_kontra[s][dcl] : 1);
                if (ok) pay(it, s, dcl, amount);
                else pay(it, dcl, s, amount);
            }
            if (i == 0) won = ok;
        }
        if (nd > 1) won = -1;
    } else {
        /* a positive game: the sides' piles with the stash and the talon's shares (replay._talon_shares) */
        uint64_t dp = stash, op = 0;
        for (int s = 0; s < N_SEATS; s++) {
            if (d.side[s] == SIDE_DECLARER) dp |= piles[s];
            else op |= piles[s];
        }
        int opponents_took = 0;
        for (int t = 0; t < nt; t++) if (d.side[winners[t]] != SIDE_DECLARER) opponents_took = 1;
        if (p->talon == TALON_HALF) {
            op |= tmask & ~pick;
        } else if (p->talon == TALON_NONE) {
            op |= tmask;
        } else if (p->talon == TALON_CLOSED) {
            uint64_t kings_half = 0;
            if (king_in_talon && king >= 0)
                for (int h = 0; h < 6; h += 3)
                    for (int j = h; j < h + 3; j++)
                        if (talon[j] == king)
                            kings_half = 1ULL << talon[h] | 1ULL << talon[h + 1] | 1ULL << talon[h + 2];
            if (opponents_took) { dp |= kings_half; op |= tmask & ~kings_half; }
            else dp |= tmask;
        } else if (p->talon != TALON_SIX) {
            Py_RETURN_NONE;
        }
        long dscore = card_score(p, dp);
        /* what each side made in play (scoring._achiever) */
        int made[N_BONUSES];
        for (int b = 0; b < N_BONUSES; b++) made[b] = SIDE_NONE;
        made[B_TRULL] = holder(trull_mask, dp, op);
        made[B_KINGS] = holder(kings_mask, dp, op);
        for (int b = 0; b < N_BONUSES; b++) {
            if (bird_card[b] < 0) continue;
            int t = bird_trick[b] - 1;
            for (int i = 0; i < N_SEATS; i++)
                if (cards[t][i] == bird_card[b] && winners[t] == who[t][i]) made[b] = d.side[who[t][i]];
        }
        int last = N_TRICKS - 1;
        for (int i = 0; i < N_SEATS; i++)
            if (king >= 0 && cards[last][i] == king) {
                int holder_seat = who[last][i], winner = winners[last];
                int ok = p->king_ultimo_by_party ? d.side[winner] == d.side[holder_seat]
                                                 : winner == holder_seat;
                if (ok) made[B_KING_ULTIMO] = SIDE_DECLARER;
            }
        int valat_side = d.side[winners[0]];
        for (int t = 1; t < nt; t++) if (d.side[winners[t]] != valat_side) valat_side = SIDE_NONE;
        /* scoring._played: a valat replaces the game (and, unless valat_keeps_announced, every bonus) */
        int valat = -1;
        if (counts(p, B_VALAT)) {
            int by = d.announced[B_VALAT];
            if (by != SIDE_NONE) {
                valat = valat_side == by ? by : other(by);
                valat_item(&d, valat, 1);
            } else if (valat_side != SIDE_NONE) {
                valat = valat_side;
                valat_item(&d, valat, 0);
            }
        }
        if (valat >= 0) {
            if (p->valat_keeps_announced) bonus_items(&d, made, 1);
            won = valat == SIDE_DECLARER;
        } else {
            won = dscore >= p->win;
            settle(&d, T_GAME, won ? SIDE_DECLARER : SIDE_OPPONENTS,
                   value * kontra_of(&d, T_GAME) * (won ? 1 : p->lost_double));
            bonus_items(&d, made, 0);
        }
    }

    /* the lines (scoring._lines): items in breakdown order (a stable sort), one line per player in each */
    int order[MAX_ITEMS];
    for (int i = 0; i < d.n_items; i++) {
        int j = i;
        while (j > 0 && d.items[order[j - 1]].component > d.items[i].component) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    long total[N_SEATS] = {0};
    PyObject *lines = PyList_New(0);
    if (!lines) return NULL;
    for (int k = 0; k < d.n_items; k++) {
        const Item *it = &d.items[order[k]];
        for (int s = 0; s < N_SEATS; s++) {
            long v = 0;
            int own = 0;
            for (int i = 0; i < it->n; i++) {
                if (it->payee[i] == s) { v += it->amount[i]; own = 1; }
                if (it->payer[i] == s) { v -= it->amount[i]; own = 1; }
            }
            if (!own) continue;
            total[s] += v;
            PyObject *line = Py_BuildValue("(iil)", s, it->component, v);
            if (!line || PyList_Append(lines, line) < 0) { Py_XDECREF(line); Py_DECREF(lines); return NULL; }
            Py_DECREF(line);
        }
    }
    PyObject *line_tuple = PyList_AsTuple(lines);
    Py_DECREF(lines);
    if (!line_tuple) return NULL;
    return Py_BuildValue("(i(llll)N)", won, total[0], total[1], total[2], total[3], line_tuple);
}

/* -- the module ---------------------------------------------------------------------------------------- */

static PyObject *names_tuple(const char *const *names, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = names[i] ? PyUnicode_FromString(names[i]) : Py_NewRef(Py_None);
        if (!v) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static int add_new(PyObject *m, const char *name, PyObject *value) {
    if (!value) return -1;
    if (PyModule_AddObject(m, name, value) < 0) { Py_DECREF(value); return -1; }
    return 0;
}

static PyMethodDef methods[] = {
    {"init", py_init, METH_O, "Load the reference's tables, by name (tarock.accel.kr_scorer)."},
    {"plan", py_plan, METH_O, "A contract under some options, by the names of PLAN_FIELDS."},
    {"score", (PyCFunction)(void (*)(void))py_score, METH_FASTCALL,
     "A clean Königrufen deal's result, totals and breakdown (tarock.accel.kr_scorer.score), else None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_krscore", "The scorer of a clean Königrufen deal in C.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__krscore(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (add_new(m, "BONUSES", names_tuple(target_names, N_BONUSES)) < 0
        || add_new(m, "TARGETS", names_tuple(target_names, N_TARGETS)) < 0
        || add_new(m, "KINDS", names_tuple(kind_names, N_KINDS)) < 0
        || add_new(m, "TALONS", names_tuple(talon_names, N_TALONS)) < 0
        || add_new(m, "TIES", names_tuple(ties_names, N_TIES)) < 0
        || add_new(m, "JUNGFRAU", names_tuple(jungfrau_names, N_JUNGFRAU)) < 0
        || add_new(m, "GIFTS", names_tuple(gifts_names, N_GIFTS)) < 0
        || add_new(m, "SIDES", names_tuple(side_names, N_SIDES)) < 0
        || add_new(m, "PLAN_FIELDS", names_tuple(plan_names, N_PLAN_FIELDS)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
