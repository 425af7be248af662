/*
 * The double-dummy solver's core in C: a projection of tarock/solver/search.py's ``_make_visit`` (the
 * reference), searching its tree for the same values, pruned further (below).  It plays by the kernel's own
 * legality and trick winner (tarock/accel/_fastplay.c, reached through its ``KERNEL_API`` capsule: kernel.h)
 * with the play rules ``tarock.accel.play_rules`` builds from the reference, never by a copy of the rules.
 * Everything else it needs -- the thirds each card adds, the equivalence classes, the cards that beat a card --
 * it is handed by tarock/solver/search.py's ``_core``, which computes them with the reference's own functions.
 *
 * ``Engine(rules, n, side_mask, goal, bonus_card, bonus, thirds, classes, points, beaters, above, start_bits,
 * tt_bits, etc_min, settled)`` holds one game context's transposition table (2**start_bits entries, doubled up
 * to 2**tt_bits as it fills);
 * ``probe(hands, leader, trick, rem, alpha, beta)`` is search.py's ``_Engine.probe`` below the Python driver
 * (the null-window bisection stays in Python).  The search:
 * fail-soft alpha-beta over single cards; at trick boundaries a transposition table keyed by the leader and the
 * hands (equal cards packed by relative rank) holding bounds and the best lead; equivalent cards searched once
 * (also across the cards on the table, for cards that do not beat the trick), and where the trick's winning side
 * is settled one card of each chain of a suit's cards next to one another, whatever their points (the dearest
 * to its own side, ``settled_cards``: the reference searches them all); move ordering by the trick's state
 * and the table's lead; the points goal cut by the thirds still live and what the other side surely takes
 * (above) and by what the side surely takes (below): the top taroks' tricks, the leader's cashed suits and the
 * tricks a hand's high taroks surely take, and by
 * payoff-similarity (a second table filed by a coarser key: a searched position bounds every position whose
 * cards of each suit lie the same way in rank order, less or plus the points that differ place by place); the
 * last trick counted without a search.  ``stats()`` counts where the search ends (docs/solver.md, "The compiled
 * core").
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "kernel.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

/* The tables' memory: on Linux whole 2 MB pages asked for as transparent huge pages (``madvise``), since a
 * probe is a random access into up to 300 MB and with 4 KB pages most probes also missed the TLB
 * (docs/solver.md, "Speed"); anonymous pages come zeroed.  Elsewhere calloc.  ``bytes`` is the table's size, the
 * same to free it. */
#if defined(__linux__) && defined(MADV_HUGEPAGE)
#define TABLE_PAGE ((size_t)2 << 20)
static size_t table_len(size_t bytes) { return (bytes + TABLE_PAGE - 1) & ~(TABLE_PAGE - 1); }

static void *table_alloc(size_t bytes) {
    size_t len = table_len(bytes);
    uint8_t *raw = mmap(NULL, len + TABLE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return NULL;
    uint8_t *p = (uint8_t *)(((uintptr_t)raw + TABLE_PAGE - 1) & ~(uintptr_t)(TABLE_PAGE - 1));
    if (p > raw) munmap(raw, (size_t)(p - raw));
    if (raw + TABLE_PAGE > p) munmap(p + len, (size_t)(raw + TABLE_PAGE - p));
    madvise(p, len, MADV_HUGEPAGE);
    return p;
}

static void table_free(void *p, size_t bytes) {
    if (p) munmap(p, table_len(bytes));
}
#else
static void *table_alloc(size_t bytes) { return PyMem_Calloc(bytes, 1); }
static void table_free(void *p, size_t bytes) { (void)bytes; PyMem_Free(p); }
#endif

static const KernelApi *kernel = NULL;

/* The search counts cards with popcount at every node: on x86-64 the POPCNT instruction (every x86-64 CPU since
 * 2008) rather than libgcc's call, which cost about 7 % of the CPU.  PyInit__solver, outside this region, refuses
 * to load on a CPU without it (the reference solver runs then). */
#if defined(__x86_64__) && defined(__GNUC__)
#define NEEDS_POPCNT 1
#pragma GCC push_options
#pragma GCC target("popcnt")
#endif

enum { GOAL_POINTS, GOAL_NO_TRICK, GOAL_ALL_TRICKS };
enum { CASE_LEAD, CASE_TAKE, CASE_SMEAR, CASE_DUCK };
/* What ``stats()`` counts (docs/solver.md, "Speed"): where the search ends at a trick boundary, how its table
 * answers, and how soon a node cuts off. */
enum { ST_BOUNDARY, ST_CUT_REM, ST_CUT_SURE, ST_LAST_TRICK, ST_TT_PROBE, ST_TT_FOUND, ST_TT_CUT, ST_CUT_NODES,
       ST_CUT_FIRST, ST_ALL_NODES, ST_ALL_MOVES, ST_STORES, ST_EVICTIONS, ST_SIM_FOUND, ST_SIM_CUT, ST_ETC_CUT,
       ST_SETTLED, N_STATS };
static const char *const STAT_NAMES[N_STATS] = {
    "boundary", "cut_rem", "cut_sure", "last_trick", "tt_probe", "tt_found", "tt_cut", "cut_nodes", "cut_first",
    "all_nodes", "all_moves", "stores", "evictions", "sim_found", "sim_cut", "etc_cut", "settled"};
#define INF (1 << 30)
#define PAGAT_CARD 0
#define MOND 20
#define SKIS 21
#define TRULA ((1ULL << PAGAT_CARD) | (1ULL << MOND) | (1ULL << SKIS))

/* The main table's entry, 32 bytes (a bucket of four is two cache lines): the position's key as three words
 * (``main_key``) -- the packed live cards with the leader above them, and which packed cards the odd seats and
 * seats 2 and 3 hold: two bits of each card's owner, so the key is exact for up to four hands -- the bounds proved
 * on its thirds to come (``±INF`` as ``INT16_MIN``/``INT16_MAX``: ``to_bound``), the best lead and the cards
 * left.  A free entry's first word is 0 (a stored position has live cards). */
typedef struct {
    uint64_t key[3];
    int16_t low, high;
    int8_t best, cards;
} Entry;
_Static_assert(sizeof(Entry) == 32, "a main-table entry is 32 bytes");

#define LEADER_SHIFT 56  /* the leader's place in the key's first word, above the 54 cards */
#define CARDS ((1ULL << N_CARDS) - 1)

/* The payoff-similarity table's entry (``sim_store``), 32 bytes: a searched position filed by its coarse key --
 * every plain suit's and the taroks II..XX's live cards packed to the bottom of their suit, whatever their points
 * (``sim_key``) -- as its live cards with the leader above them (which give the coarse key's live cards:
 * ``same_coarse``) and the odd seats' and seats 2 and 3's cards packed so, with the bounds proved on its thirds to
 * come (as ``Entry``'s).  A free entry's first word is 0. */
typedef struct {
    uint64_t live, odd, upper;
    int16_t low, high;
} SimEntry;
_Static_assert(sizeof(SimEntry) == 32, "a payoff-similarity entry is 32 bytes");

typedef struct {
    PyObject_HEAD
    PyObject *rules_obj;
    const Rules *rules;
    int n, goal, bonus_card, bonus;
    int etc_min;  /* cards a hand from which the last seat tries an enhanced transposition cutoff (``etc_cut``) */
    int settled;  /* whether a trick whose winning side is settled searches one card a chain (``settled_cards``) */
    uint64_t side, bonus_bit;
    int thirds[N_CARDS], cls[N_CARDS], points_of[N_CARDS];
    uint64_t beaters[N_CARDS], above[N_CARDS], taroks;
    int nblocks;
    int block_start[N_CARDS];
    uint64_t block_mask[N_CARDS], runs;
    Entry *tt;
    uint64_t tt_mask, tt_max;
    int nsuits;
    uint64_t suit_block[5], suit_runs;  /* the coarse key's blocks: whole plain suits (less the bonus card), II..XX */
    SimEntry *sim;
    uint64_t sim_mask;
    Py_ssize_t used;
    uint64_t hands[MAX_SEATS];
    int tcards[MAX_SEATS];
    long long nodes;
    double deadline;  /* the thread's CPU seconds at which a probe stops (0: never): ``probe``'s last argument */
    int stopped;      /* the probe ran past ``deadline``: every node returns at once, storing nothing */
    long long stat[N_STATS];
    long long visits_at[MAX_TRICKS + 1], expanded_at[MAX_TRICKS + 1];  /* by the cards in the leader's hand */
} Engine;

/* The calling thread's CPU seconds, on the clock of Python's ``time.thread_time`` (a Dask worker runs tasks in
 * threads: each search is held to its own time). */
static double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int lowest(uint64_t m) { return __builtin_ctzll(m); }
static inline int highest(uint64_t m) { return 63 - __builtin_clzll(m); }

/* search.py's ``_packer``: a hand's cards in the runs of equal cards packed to each run's bottom. */
static uint64_t pack(const Engine *e, uint64_t hand, uint64_t live) {
    uint64_t out = hand & ~e->runs;
    for (int b = 0; b < e->nblocks; b++) {
        uint64_t lb = live & e->block_mask[b];
        uint64_t target = 1ULL << e->block_start[b];
        while (lb) {
            uint64_t low = lb & (~lb + 1);
            lb ^= low;
            if (hand & low) out |= target;
            target <<= 1;
        }
    }
    return out;
}

/* The cards of the odd seats and of seats 2 and 3: with the live cards, two bits of owner per card (seat 0 holds
 * the live cards in neither), the keys' second and third words before they are packed. */
static inline void owner_masks(const Engine *e, uint64_t *odd, uint64_t *upper) {
    uint64_t o = 0, u = 0;
    for (int i = 1; i < e->n; i++) {
        if (i & 1) o |= e->hands[i];
        if (i & 2) u |= e->hands[i];
    }
    *odd = o;
    *upper = u;
}

/* The main table's key of the hands with ``leader`` to lead (``Entry``): the live cards, the odd seats' cards and
 * seats 2 and 3's cards, each packed as ``pack`` does -- the same position exactly when every hand packs the same
 * (the owner of each packed card is its two bits).  With BMI2 (``main_key_bmi2``) a mask's run cards are gathered
 * by the live run cards (``pext``) and spread to the bottom of each run (``pdep``) in two instructions: the order
 * within a run is kept because both masks count the same cards per run. */
static void main_key_portable(const Engine *e, uint64_t live, int leader, uint64_t *out) {
    uint64_t odd, upper;
    owner_masks(e, &odd, &upper);
    out[0] = pack(e, live, live) | (uint64_t)leader << LEADER_SHIFT;
    out[1] = pack(e, odd, live);
    out[2] = pack(e, upper, live);
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_BMI2_PATH 1
__attribute__((target("bmi2,popcnt"))) static void main_key_bmi2(const Engine *e, uint64_t live, int leader,
                                                                 uint64_t *out) {
    uint64_t from = live & e->runs, to = 0, odd, upper;
    for (int b = 0; b < e->nblocks; b++)
        to |= ((1ULL << __builtin_popcountll(from & e->block_mask[b])) - 1) << e->block_start[b];
    owner_masks(e, &odd, &upper);
    out[0] = (live & ~e->runs) | to | (uint64_t)leader << LEADER_SHIFT;
    out[1] = (odd & ~e->runs) | _pdep_u64(_pext_u64(odd, from), to);
    out[2] = (upper & ~e->runs) | _pdep_u64(_pext_u64(upper, from), to);
}
#endif

static void (*main_key)(const Engine *, uint64_t, int, uint64_t *) = main_key_portable;

/* The coarse key of payoff-similarity (``sim_bounds``): the cards of the coarse blocks (``suit_block``) packed to the
 * bottom of their block among the live cards, the other cards as they are.  Two positions with one coarse key
 * and leader differ only in which cards of a block are still live, and the rules see only a card's suit and rank
 * order within it (the trula and the bonus card, whose identity matters, stay out of the blocks), so their games
 * are the same tree with the k-th live card of each block in the same place.  ``sim_key`` gives it as three words
 * as ``main_key`` does: the live cards so packed with the leader above them, the odd seats' and seats 2 and 3's
 * cards so packed; with BMI2 as ``main_key``. */
static uint64_t coarse_pack(const Engine *e, uint64_t hand, uint64_t live) {
    uint64_t out = hand & ~e->suit_runs;
    for (int b = 0; b < e->nsuits; b++) {
        uint64_t lb = live & e->suit_block[b], slots = e->suit_block[b];
        while (lb) {
            uint64_t low = lb & (~lb + 1), target = slots & (~slots + 1);
            lb ^= low;
            slots ^= target;
            if (hand & low) out |= target;
        }
    }
    return out;
}

static void sim_key_portable(const Engine *e, uint64_t live, int leader, uint64_t *out) {
    uint64_t odd, upper;
    owner_masks(e, &odd, &upper);
    out[0] = coarse_pack(e, live, live) | (uint64_t)leader << LEADER_SHIFT;
    out[1] = coarse_pack(e, odd, live);
    out[2] = coarse_pack(e, upper, live);
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("bmi2,popcnt"))) static void sim_key_bmi2(const Engine *e, uint64_t live, int leader,
                                                                uint64_t *out) {
    uint64_t from = live & e->suit_runs, to = 0, odd, upper;
    for (int b = 0; b < e->nsuits; b++)
        to |= _pdep_u64((1ULL << __builtin_popcountll(from & e->suit_block[b])) - 1, e->suit_block[b]);
    owner_masks(e, &odd, &upper);
    out[0] = (live & ~e->suit_runs) | to | (uint64_t)leader << LEADER_SHIFT;
    out[1] = (odd & ~e->suit_runs) | _pdep_u64(_pext_u64(odd, from), to);
    out[2] = (upper & ~e->suit_runs) | _pdep_u64(_pext_u64(upper, from), to);
}
#endif

static void (*sim_key)(const Engine *, uint64_t, int, uint64_t *) = sim_key_portable;

/* Whether two sets of live cards (a ``SimEntry``'s first word: the leader above them is compared too) pack to one
 * coarse key's live cards: the same cards outside the coarse blocks and as many in each block. */
static inline int same_coarse(const Engine *e, uint64_t a, uint64_t b) {
    if ((a ^ b) & ~e->suit_runs) return 0;
    for (int i = 0; i < e->nsuits; i++)
        if (__builtin_popcountll(a & e->suit_block[i]) != __builtin_popcountll(b & e->suit_block[i])) return 0;
    return 1;
}

/* How far the declarer side's thirds to come may differ between two positions of one coarse key, live cards
 * ``now`` and ``then``: the same tree, the k-th live card of each block in the same place, so along any line of
 * play the side takes the same places, and each place it takes adds ``thirds[now's card] - thirds[then's]``.
 * ``*down`` sums the negative differences, ``*up`` the positive: value(now) - value(then) lies between them. */
static void similarity_gap(const Engine *e, uint64_t now, uint64_t then, int *down, int *up) {
    int lo = 0, hi = 0;
    for (int b = 0; b < e->nsuits; b++) {
        uint64_t a = now & e->suit_block[b], c = then & e->suit_block[b];
        if (a == c) continue;
        while (a) {
            int d = e->thirds[lowest(a)] - e->thirds[lowest(c)];
            a &= a - 1;
            c &= c - 1;
            if (d < 0) lo += d; else hi += d;
        }
    }
    *down = lo;
    *up = hi;
}

/* Whether two keys of ``n`` hands are equal: inline, where libc's memcmp was a call per table entry compared. */
static inline int same_key(const uint64_t *a, const uint64_t *b, int n) {
    uint64_t d = 0;
    for (int i = 0; i < n; i++) d |= a[i] ^ b[i];
    return !d;
}

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 31; x *= 0x7fb5d329728ea185ULL; x ^= x >> 27; x *= 0x81dadef4bc2dd44dULL; x ^= x >> 33;
    return x;
}

/* The main table's hash of a ``main_key``. */
static inline uint64_t main_hash(const uint64_t *key) {
    return mix(mix(mix(key[0]) ^ key[1]) + key[2]);
}

/* A bound as the entry holds it (``Entry``) and back: every value is a few hundred thirds at most. */
static inline int16_t to_bound(int v) { return v <= -INF ? INT16_MIN : v >= INF ? INT16_MAX : (int16_t)v; }
static inline int from_bound(int16_t v) { return v == INT16_MIN ? -INF : v == INT16_MAX ? INF : v; }

/* The entry of ``key`` (hashed to ``h``) in the table, or NULL. */
static Entry *lookup(Engine *e, const uint64_t *key, uint64_t h) {
    uint64_t base = h & e->tt_mask & ~3ULL;
    for (int i = 0; i < 4; i++) {
        Entry *x = &e->tt[base + i];
        if (!x->key[0]) return NULL;
        if (same_key(x->key, key, 3)) return x;
    }
    return NULL;
}

/* Where ``key`` goes in the table: its own entry, else a free one of its bucket, else (a full bucket) the
 * position nearest the end of play (the cheapest to solve again). */
static Entry *slot(Engine *e, const uint64_t *key) {
    uint64_t base = main_hash(key) & e->tt_mask & ~3ULL;
    Entry *victim = NULL;
    for (int i = 0; i < 4; i++) {
        Entry *x = &e->tt[base + i];
        if (!x->key[0] || same_key(x->key, key, 3)) return x;
        if (!victim || x->cards < victim->cards) victim = x;
    }
    return victim;
}

/* Double the table, every entry moved to its new bucket, rather than give up a position while it is below its
 * largest size: a search of a few tricks never pays for the pages of a whole deal's table.  Whether it grew
 * (out of memory, it stays as it is). */
static void sim_grow(Engine *e);

static int grow(Engine *e) {
    size_t size = (size_t)(e->tt_mask + 1);
    Entry *old = e->tt, *tt = table_alloc(2 * size * sizeof(Entry));
    if (!tt) return 0;
    e->tt = tt;
    e->tt_mask = 2 * size - 1;
    e->used = 0;
    if (e->sim && e->sim_mask < e->tt_mask) sim_grow(e);
    for (size_t i = 0; i < size; i++) {
        if (!old[i].key[0]) continue;
        Entry *x = slot(e, old[i].key);
        if (!x->key[0]) e->used++;
        *x = old[i];
    }
    table_free(old, size * sizeof(Entry));
    return 1;
}

/* search.py's ``_store``: what a search in (alpha, beta) proved, merged with what the table knew. */
static void store(Engine *e, const uint64_t *key, int cards, int value, int alpha, int beta, int best) {
    int low, high;
    if (alpha < value && value < beta) low = high = value;
    else if (value <= alpha) { low = -INF; high = value; }
    else { low = value; high = INF; }
    Entry *victim = slot(e, key);
    e->stat[ST_STORES]++;
    if (victim->key[0] && !same_key(victim->key, key, 3)
        && e->tt_mask + 1 < e->tt_max && e->used * 2 > (Py_ssize_t)(e->tt_mask + 1) && grow(e))
        victim = slot(e, key);
    if (!victim->key[0]) {
        e->used++;
    } else if (!same_key(victim->key, key, 3)) {
        e->stat[ST_EVICTIONS]++;
    } else {
        if (from_bound(victim->low) > low) low = from_bound(victim->low);
        if (from_bound(victim->high) < high) high = from_bound(victim->high);
    }
    memcpy(victim->key, key, sizeof victim->key);
    victim->low = to_bound(low);
    victim->high = to_bound(high);
    victim->best = (int8_t)best;
    victim->cards = (int8_t)cards;
}

/* Where a position goes in the payoff-similarity table (buckets of four, by the coarse key's hash): its own
 * entry, else a free one, else the one with the fewest cards left (the cheapest to search again). */
static SimEntry *sim_slot(SimEntry *sim, uint64_t mask, const SimEntry *at, uint64_t h) {
    SimEntry *victim = NULL;
    for (int i = 0; i < 4; i++) {
        SimEntry *y = &sim[(h & mask & ~3ULL) + (uint64_t)i];
        if (!y->live) { if (!victim || victim->live) victim = y; continue; }
        if (y->live == at->live && y->odd == at->odd && y->upper == at->upper) return y;
        if (!victim || (victim->live && __builtin_popcountll(y->live & CARDS) < __builtin_popcountll(victim->live & CARDS)))
            victim = y;
    }
    return victim;
}

/* Double the payoff-similarity table along with the main one (``grow``), every entry moved to its new bucket;
 * out of memory it stays as it is. */
static void sim_grow(Engine *e) {
    size_t size = (size_t)(e->sim_mask + 1);
    SimEntry *old = e->sim, *sim = table_alloc(2 * size * sizeof(SimEntry));
    if (!sim) return;
    for (size_t i = 0; i < size; i++) {
        if (!old[i].live) continue;
        uint64_t ckey[3] = {coarse_pack(e, old[i].live & CARDS, old[i].live & CARDS) | (old[i].live & ~CARDS),
                            old[i].odd, old[i].upper};
        *sim_slot(sim, 2 * size - 1, &old[i], main_hash(ckey)) = old[i];
    }
    e->sim = sim;
    e->sim_mask = 2 * size - 1;
    table_free(old, size * sizeof(SimEntry));
}

/* What a search in (alpha, beta) proved, in the payoff-similarity table: merged with the entry of the same
 * position. */
static void sim_store(Engine *e, const uint64_t *ckey, uint64_t h, uint64_t live, int value, int alpha, int beta) {
    int low, high;
    if (alpha < value && value < beta) low = high = value;
    else if (value <= alpha) { low = -INF; high = value; }
    else { low = value; high = INF; }
    SimEntry at = {live | (ckey[0] & ~CARDS), ckey[1], ckey[2], 0, 0};
    SimEntry *y = sim_slot(e->sim, e->sim_mask, &at, h);
    if (y->live == at.live && y->odd == at.odd && y->upper == at.upper) {
        if (from_bound(y->low) > low) low = from_bound(y->low);
        if (from_bound(y->high) < high) high = from_bound(y->high);
    }
    at.low = to_bound(low);
    at.high = to_bound(high);
    *y = at;
}

/* The bounds the payoff-similarity table gives a position (coarse key ``ckey``, live cards ``live``): over the
 * entries of its coarse key, the highest stored lower bound less what the places may lose and the lowest upper
 * bound plus what they may gain (``similarity_gap``).  Whether any entry was found. */
static int sim_bounds(const Engine *e, const uint64_t *ckey, uint64_t live, uint64_t h, int *low, int *high) {
    int found = 0;
    const uint64_t at = live | (ckey[0] & ~CARDS);
    for (int i = 0; i < 4; i++) {
        const SimEntry *y = &e->sim[(h & e->sim_mask & ~3ULL) + (uint64_t)i];
        if (!y->live || y->odd != ckey[1] || y->upper != ckey[2] || !same_coarse(e, y->live, at)) continue;
        int down, up;
        similarity_gap(e, live, y->live & CARDS, &down, &up);
        if (from_bound(y->low) + down > *low) *low = from_bound(y->low) + down;
        if (from_bound(y->high) + up < *high) *high = from_bound(y->high) + up;
        found = 1;
    }
    return found;
}

/* search.py's ``_distinct``: ``ok`` less each card whose next higher live card is in ``ok`` and of its class. */
static uint64_t distinct(const Engine *e, uint64_t ok, uint64_t live) {
    uint64_t cands = ok, m = ok;
    while (m) {
        int card = lowest(m);
        m &= m - 1;
        uint64_t up = live & e->above[card];
        if (up) {
            int nb = lowest(up);
            if ((ok >> nb & 1) && e->cls[card] == e->cls[nb]) cands &= ~(1ULL << card);
        }
    }
    return cands;
}

/* The side that surely takes the trick whoever of ``seat``'s cards is played, or -1: ``wseat`` (the trick's winner
 * so far, or ``seat`` itself) unless a later seat of the trick holds a card of ``beat`` (the cards that beat the
 * winning card), or another side when it does; and none while the trick may still become the emperor trick (all
 * three trula cards on the table or in the later hands: the Pagat then wins whatever its rank). */
static int settled_side(const Engine *e, int seat, int pos, int wseat, uint64_t beat, uint64_t tmask) {
    const int n = e->n, side = (int)(e->side >> wseat & 1);
    uint64_t later = 0;
    for (int k = pos + 1; k < n; k++) {
        int s = (seat + k - pos) % n;
        later |= e->hands[s];
        if ((e->hands[s] & beat) && (int)(e->side >> s & 1) != side) return -1;
    }
    if (e->rules->emperor && ((tmask | later) & TRULA) == TRULA) return -1;
    return side;
}

/* A trick whose winning side is settled (``settled_side``): of each chain of ``ok``'s cards that lie next to one
 * another among the ``live`` cards in one coarse block (``suit_block``: a plain suit less the bonus card, the
 * taroks II..XX -- the rules see only a card's suit and its rank among the live cards), only the dearest card when
 * ``dear`` (the trick goes to the side of the seat to play) and else the cheapest, the higher of equal ones.  Why
 * exactly: playing X and keeping Y of a chain, or Y and keeping X, leaves the same tree with the two in each
 * other's place (nothing lies between them), so along each line the two differ only in who takes X's and Y's
 * points: the trick now, which goes to the settled side, and the trick the kept card falls in later.  A chain's
 * dearest card given to its own side's trick (the cheapest to the other side's) is never worse for the seat. */
static uint64_t settled_cards(const Engine *e, uint64_t ok, uint64_t live, int dear) {
    uint64_t out = ok & ~e->suit_runs, m = ok & e->suit_runs;
    while (m) {
        int c = lowest(m), best = c;
        m &= m - 1;
        for (;;) {
            uint64_t up = live & e->above[c];
            if (!up || !(m >> lowest(up) & 1)) break;  /* above[] is the card's own suit */
            c = lowest(up);
            m &= ~(1ULL << c);
            if (dear ? e->thirds[c] >= e->thirds[best] : e->thirds[c] <= e->thirds[best]) best = c;
        }
        out |= 1ULL << best;
    }
    return out;
}

/* search.py's ``_ordered``: the cards most likely to cut off first, as a sort key (higher first); two changes,
 * measured in docs/solver.md ("Speed"): the last seat of a trick takes it with its lowest winning card, and a
 * lead of a plain suit goes dearest card first (taroks still highest first, the plain suits before them). */
static int order_moves(const Engine *e, uint64_t cands, uint64_t beat, int kase, int last, int *out) {
    int count = 0, keys[MAX_TRICKS];
    beat &= cands;
    while (cands) {
        int card = highest(cands);
        cands &= ~(1ULL << card);
        int b = (int)(beat >> card & 1), key;
        switch (kase) {
        case CASE_LEAD: key = e->taroks >> card & 1 ? card : 64 * e->points_of[card] + card; break;
        case CASE_TAKE: key = b ? (last ? 1064 - card : 1000 + card) : 500 - 64 * e->points_of[card] + card; break;
        case CASE_SMEAR: key = b ? 64 - card : 1000 + 64 * e->points_of[card] + card; break;
        default: key = b ? 64 - card : 1000 + card; break;
        }
        int i = count++;
        while (i > 0 && keys[i - 1] < key) { keys[i] = keys[i - 1]; out[i] = out[i - 1]; i--; }
        keys[i] = key;
        out[i] = card;
    }
    return count;
}

/* What one side surely takes, in thirds, at a trick boundary (points goal, taroks trumps): the holder of the
 * highest live tarok wins a trick with each card of his unbroken run of the highest live taroks, whenever he
 * plays it, and each other card of that trick adds at least one third.  The Škis is not sure while the other
 * side holds the Pagat and another hand the Mond (the emperor trick).  Sets ``*holder`` to the run's seat. */
static int sure_thirds(const Engine *e, uint64_t live, int *holder) {
    uint64_t taroks = live & e->taroks;
    if (!taroks) return 0;
    int top = highest(taroks), h = -1;
    for (int i = 0; i < e->n; i++)
        if (e->hands[i] >> top & 1) h = i;
    *holder = h;
    int ours = (int)(e->side >> h & 1), sure = 0;
    while (taroks && (e->hands[h] >> (top = highest(taroks)) & 1)) {
        if (top == SKIS && e->rules->emperor && (live >> PAGAT_CARD & 1) && (live >> MOND & 1)
            && !(e->hands[h] >> MOND & 1)) {
            int pagat_holder = -1;
            for (int i = 0; i < e->n; i++)
                if (e->hands[i] >> PAGAT_CARD & 1) pagat_holder = i;
            if ((int)(e->side >> pagat_holder & 1) != ours) break;
        }
        sure += e->thirds[top] + e->n - 1;
        taroks &= ~(1ULL << top);
    }
    return sure;
}

/* What the leader's side surely takes, in thirds, at a trick boundary (points goal) by cashing the top cards of
 * the plain suits: when the leader holds the highest k live cards of a suit and every other hand that holds a
 * tarok (which could trump: taroks trump) holds at least k cards of that suit, leading them one by one wins k
 * tricks: the hands with taroks must follow below them, the others cannot win a suit trick, and the leader keeps
 * the lead, so the suits are cashed one after another (following with a suit's cards leaves the other suits'
 * counts as they were).  Each such trick adds the leader's card, the lowest k cards of the suit of each hand
 * that must follow, and at least one third for any other card.  No tarok is played in these tricks by a hand
 * holding taroks, so they add to ``sure_thirds``'s tricks (all three trula cards never meet in one of them:
 * only hands without taroks could discard, and they hold no trula card). */
static int quick_thirds(const Engine *e, int leader) {
    const int n = e->n;
    const uint64_t trumpers = e->rules->trumps ? e->taroks : 0;
    uint64_t lead_hand = e->hands[leader];
    int sure = 0;
    for (int s = 0; s < 4; s++) {
        uint64_t suit = 0xFFULL << (22 + 8 * s), mine = lead_hand & suit;
        if (!mine) continue;
        uint64_t live = 0;
        for (int i = 0; i < n; i++) live |= e->hands[i] & suit;
        int k = 0;
        uint64_t top = live;
        while (top && (mine >> highest(top) & 1)) { k++; top &= ~(1ULL << highest(top)); }
        if (!k) continue;
        for (int i = 0; i < n && k; i++) {
            if (i == leader || !(e->hands[i] & trumpers)) continue;
            int c = __builtin_popcountll(e->hands[i] & suit);
            if (c < k) k = c;
        }
        if (!k) continue;
        uint64_t cash = mine;
        for (int j = 0; j < k; j++) { int c = highest(cash); sure += e->thirds[c]; cash &= ~(1ULL << c); }
        for (int i = 0; i < n; i++) {
            if (i == leader) continue;
            uint64_t follow = e->hands[i] & suit;
            if (!(e->hands[i] & trumpers) && __builtin_popcountll(follow) < k) { sure += k; continue; }
            for (int j = 0; j < k; j++) { int c = lowest(follow); sure += e->thirds[c]; follow &= follow - 1; }
        }
    }
    return sure;
}

/* The tricks one hand surely wins for its side, in thirds, at a trick boundary (points goal, taroks trumps): a
 * hand holding i taroks of which the other side's live taroks can beat at most j wins i - j tricks with them.
 * It plays each in a trick of its own, and such a card loses only to a higher tarok of the other side (a
 * partner's higher one keeps the trick in the side; taroks trump the plain suits), each of which falls in one
 * trick -- or to the other side's Pagat in the emperor trick, while it applies (with the Mond and the Škis in
 * the trick, whoever holds them): the Pagat too falls in one trick.  Each trick won adds one of the i cards
 * (at least the cheapest i - j of them) and at least a third for each other card.  Called for a side that does
 * not hold the highest live tarok, so the tricks are none of ``sure_thirds``'s (those are the other side's),
 * and none of ``quick_thirds``'s: a hand holding taroks follows suit in those.  The best hand of the side
 * counts (two hands of one side may win the same trick); 0 when none has such taroks. */
static int tarok_tricks(const Engine *e, uint64_t live, int mine) {
    uint64_t other = 0;
    for (int i = 0; i < e->n; i++)
        if ((int)(e->side >> i & 1) != mine) other |= e->hands[i];
    other &= live & e->taroks;
    const int pagat = e->rules->emperor && (other >> PAGAT_CARD & 1);
    int best = 0;
    for (int h = 0; h < e->n; h++) {
        if ((int)(e->side >> h & 1) != mine) continue;
        const uint64_t taroks = e->hands[h] & e->taroks;
        uint64_t rest = taroks;
        int i = 0;
        while (rest) {
            int t = highest(rest);
            rest &= ~(1ULL << t);
            i++;
            int k = i - __builtin_popcountll(other & e->above[t]) - pagat, won = k * (e->n - 1);
            if (k <= 0) continue;
            for (uint64_t played = taroks & ~rest; k--; played &= played - 1) won += e->thirds[lowest(played)];
            if (won > best) best = won;
        }
    }
    return best;
}

static inline int cards_in(const Engine *e) {
    int c = 0;
    for (int i = 0; i < e->n; i++) c += __builtin_popcountll(e->hands[i]);
    return c;
}

/* The value of the last trick, every hand down to one card (a forced play, so no search): the kernel's trick
 * winner over the cards in play order, and what the trick is worth to the declarer side as ``visit`` counts it. */
static int last_trick(const Engine *e, int leader) {
    const int n = e->n;
    int cards[MAX_SEATS], tv = 0;
    uint64_t tm = 0;
    for (int i = 0; i < n; i++) {
        cards[i] = lowest(e->hands[(leader + i) % n]);
        tm |= e->hands[(leader + i) % n];
        tv += e->thirds[cards[i]];
    }
    int w = kernel->trick_winner(cards, n, e->rules->trumps, e->rules->emperor);
    int ours = (int)(e->side >> ((leader + w) % n) & 1);
    if (e->goal != GOAL_POINTS) return ours == (e->goal == GOAL_NO_TRICK) ? -1 : 0;
    return (ours ? tv : 0) + (cards[w] == e->bonus_card ? e->bonus : 0);
}

/* search.py's ``visit``: the future value with ``seat`` to play card ``pos`` of the trick, fail-soft. */
/* Enhanced transposition cutoff at the last seat of a trick high in the tree (at least ``e->etc_min`` cards a
 * hand, where a subtree costs far more than a few table probes): before any card's subtree is searched, the
 * next trick boundary of each card -- the trick completed -- is bounded by the thirds still live and by its
 * main table entry (the payoff-similarity table's too saved 2 % more nodes for more CPU: docs/solver.md).
 * Whether one settles the window (points goal only), its bound in ``*out``. */
static int visit(Engine *e, int seat, int pos, int led, int wcard, int wseat, uint64_t tmask, int tval,
                 uint64_t live, int rem, int alpha, int beta);

static int etc_cut(Engine *e, int seat, const int *cards, int count, const int *trick, int wcard, int wseat,
                   uint64_t tmask, int tval, uint64_t live, int rem, int alpha, int beta, int maxi, int *out) {
    const int n = e->n, pos = n - 1;
    const uint64_t hand = e->hands[seat];
    uint64_t key[3];
    for (int i = 0; i < count; i++) {
        int card = cards[i], nw, nws;
        uint64_t bit = 1ULL << card, tm = tmask | bit, nlive = live & ~tm;
        if (e->beaters[wcard] & bit) { nw = card; nws = seat; }
        else { nw = wcard; nws = wseat; }
        if ((tm & TRULA) == TRULA) {
            memcpy(e->tcards, trick, sizeof(int) * (size_t)pos);
            e->tcards[pos] = card;
            int w = kernel->trick_winner(e->tcards, n, e->rules->trumps, e->rules->emperor);
            nw = e->tcards[w];
            nws = (seat + 1 + w) % n;
        }
        if (!nlive) continue;
        int tv = tval + e->thirds[card], gain = (int)(e->side >> nws & 1) ? tv : 0;
        if (nw == e->bonus_card) gain += e->bonus;
        int nrem = rem - tv - ((tm & e->bonus_bit) ? e->bonus : 0), low = 0, high = nrem;
        e->hands[seat] = hand ^ bit;
        main_key(e, nlive, nws, key);
        Entry *x = lookup(e, key, main_hash(key));
        if (x) {
            if (from_bound(x->low) > low) low = from_bound(x->low);
            if (from_bound(x->high) < high) high = from_bound(x->high);
        }
        e->hands[seat] = hand;
        if (maxi && gain + low >= beta) { *out = gain + low; return 1; }
        if (!maxi && gain + high <= alpha) { *out = gain + high; return 1; }
    }
    return 0;
}

static int visit(Engine *e, int seat, int pos, int led, int wcard, int wseat, uint64_t tmask, int tval,
                 uint64_t live, int rem, int alpha, int beta) {
    const int n = e->n, points = e->goal == GOAL_POINTS;
    uint64_t key[3], ckey[3], ch = 0;
    int boundary = pos == 0, lead = -1, kase;
    e->nodes++;
    if (e->deadline > 0 && !(e->nodes & 0xFFF) && cpu_seconds() > e->deadline) { e->stopped = 1; return 0; }
    if (boundary) {
        e->stat[ST_BOUNDARY]++;
        e->visits_at[__builtin_popcountll(e->hands[seat])]++;
        if (points && (rem <= alpha || beta <= 0)) { e->stat[ST_CUT_REM]++; return rem <= alpha ? rem : 0; }
        if (!(e->hands[seat] & (e->hands[seat] - 1))) { e->stat[ST_LAST_TRICK]++; return last_trick(e, seat); }
        /* the key's bucket (its two cache lines) and the payoff-similarity
         * table's are fetched from memory while the sure points are counted */
        main_key(e, live, seat, key);
        uint64_t h = main_hash(key);
        __builtin_prefetch(&e->tt[h & e->tt_mask & ~3ULL]);
        __builtin_prefetch((const char *)&e->tt[h & e->tt_mask & ~3ULL] + 64);
        if (e->sim) {
            sim_key(e, live, seat, ckey);
            ch = main_hash(ckey);
            __builtin_prefetch(&e->sim[ch & e->sim_mask & ~3ULL]);
        }
        if (points) {
            int holder = -1, run = sure_thirds(e, live, &holder), quick = quick_thirds(e, seat);
            int ours = run && (e->side >> holder & 1) ? run : 0, theirs = run - ours;
            if (e->side >> seat & 1) ours += quick; else theirs += quick;
            /* a hand's sure tricks add at most a trula card and a third a card each: asked only when they could
             * settle the window */
            const int most = (e->thirds[SKIS] + n - 1) * __builtin_popcountll(live & e->taroks);
            if (ours < beta && beta - ours <= most && !(run && (e->side >> holder & 1)))
                ours += tarok_tricks(e, live, 1);
            if (rem - theirs > alpha && rem - theirs - alpha <= most && !(run && !(e->side >> holder & 1)))
                theirs += tarok_tricks(e, live, 0);
            if (ours >= beta) { e->stat[ST_CUT_SURE]++; return ours; }
            if (rem - theirs <= alpha) { e->stat[ST_CUT_SURE]++; return rem - theirs; }
        }
        e->stat[ST_TT_PROBE]++;
        Entry *x = lookup(e, key, h);
        if (x) {
            int low = from_bound(x->low), high = from_bound(x->high);
            e->stat[ST_TT_FOUND]++;
            if (low >= beta || low == high) { e->stat[ST_TT_CUT]++; return low; }
            if (high <= alpha) { e->stat[ST_TT_CUT]++; return high; }
            if (low > alpha) alpha = low;
            if (high < beta) beta = high;
            lead = x->best;
        }
        if (e->sim) {  /* payoff-similarity: searched positions of the same coarse key bound this one */
            int low = -INF, high = INF;
            if (sim_bounds(e, ckey, live, ch, &low, &high)) {
                e->stat[ST_SIM_FOUND]++;
                if (low >= beta) { e->stat[ST_SIM_CUT]++; return low; }
                if (high <= alpha) { e->stat[ST_SIM_CUT]++; return high; }
            }
        }
        kase = CASE_LEAD;
    } else {
        int mine = (int)(e->side >> seat & 1);
        kase = e->goal != GOAL_NO_TRICK ? ((int)(e->side >> wseat & 1) != mine ? CASE_TAKE : CASE_SMEAR) : CASE_DUCK;
    }
    uint64_t hand = e->hands[seat];
    uint64_t ok = kernel->legal_mask(hand, led, wcard, tmask, e->rules);
    int cards[MAX_TRICKS], count;
    if (!(ok & (ok - 1))) {
        cards[0] = lowest(ok);
        count = 1;
    } else {
        uint64_t beat = pos ? ok & e->beaters[wcard] : 0;
        /* A card that does not beat the trick's winner leaves the trick as it is, so beside those cards the ones
         * on the table, which leave with the trick, do not separate two equal cards. */
        uint64_t cands = pos ? distinct(e, ok & ~beat, live & ~tmask) | distinct(e, beat, live)
                             : distinct(e, ok, live);
        /* a trick whose winning side is settled: one card a chain (asked only where two cards could chain) */
        if (pos && points && e->settled && __builtin_popcountll(cands & e->suit_runs) > 1) {
            const int mine = (int)(e->side >> seat & 1);
            int side = settled_side(e, seat, pos, wseat, e->beaters[wcard], tmask);
            uint64_t keep = side < 0 ? distinct(e, ok & ~beat, live & ~tmask)
                                     : settled_cards(e, ok & ~beat, live & ~tmask, side == mine);
            if (beat) {
                side = settled_side(e, seat, pos, seat, e->beaters[lowest(beat)], tmask);
                keep |= side < 0 ? distinct(e, beat, live) : settled_cards(e, beat, live, side == mine);
            }
            e->stat[ST_SETTLED] += __builtin_popcountll(cands & ~keep);
            cands = keep;
        }
        count = order_moves(e, cands, beat, kase, pos + 1 == n, cards);
    }
    if (lead >= 0 && cards[0] != lead) {
        for (int i = 1; i < count; i++)
            if (cards[i] == lead) {
                memmove(cards + 1, cards, sizeof(int) * (size_t)i);
                cards[0] = lead;
                break;
            }
    }
    const int a0 = alpha, b0 = beta, maxi = (int)(e->side >> seat & 1), last = pos + 1 == n;
    int trick[MAX_SEATS];  /* the trick so far: a sibling's subtree plays later tricks over ``e->tcards`` */
    memcpy(trick, e->tcards, sizeof(int) * (size_t)pos);
    int best = maxi ? -INF : INF, best_card = -1, i;
    if (last && points && count > 1 && __builtin_popcountll(hand) >= e->etc_min
        && etc_cut(e, seat, cards, count, trick, wcard, wseat, tmask, tval, live, rem, alpha, beta, maxi, &best)) {
        e->stat[ST_ETC_CUT]++;
        return best;
    }
    for (i = 0; i < count; i++) {
        int card = cards[i], v, nw, nws;
        uint64_t bit = 1ULL << card;
        e->hands[seat] = hand ^ bit;
        if (pos == 0 || (e->beaters[wcard] & bit)) { nw = card; nws = seat; }
        else { nw = wcard; nws = wseat; }
        if (!last) {
            memcpy(e->tcards, trick, sizeof(int) * (size_t)pos);
            e->tcards[pos] = card;
            v = visit(e, (seat + 1) % n, pos + 1, pos == 0 ? card : led, nw, nws, tmask | bit, tval + e->thirds[card],
                      live, rem, alpha, beta);
        } else {
            uint64_t tm = tmask | bit;
            if ((tm & TRULA) == TRULA) {  /* the emperor trick: the trick's winner by the kernel's own rule */
                memcpy(e->tcards, trick, sizeof(int) * (size_t)pos);
                e->tcards[pos] = card;
                int w = kernel->trick_winner(e->tcards, n, e->rules->trumps, e->rules->emperor);
                nw = e->tcards[w];
                nws = (seat + 1 + w) % n;
            }
            int ours = (int)(e->side >> nws & 1);
            uint64_t nlive = live & ~tm;
            if (points) {
                int tv = tval + e->thirds[card], gain = ours ? tv : 0;
                if (nw == e->bonus_card) gain += e->bonus;
                int nrem = rem - tv - ((tm & e->bonus_bit) ? e->bonus : 0);
                v = nlive ? gain + visit(e, nws, 0, -1, -1, -1, 0, 0, nlive, nrem, alpha - gain, beta - gain) : gain;
            } else if (ours == (e->goal == GOAL_NO_TRICK)) {
                v = -1;
            } else {
                v = nlive ? visit(e, nws, 0, -1, -1, -1, 0, 0, nlive, 0, alpha, beta) : 0;
            }
        }
        e->hands[seat] = hand;
        if (e->stopped) return 0;  /* nothing below was finished: no bound to keep */
        if (maxi) {
            if (v > best) {
                best = v; best_card = card;
                if (v > alpha) { alpha = v; if (alpha >= beta) break; }
            }
        } else if (v < best) {
            best = v; best_card = card;
            if (v < beta) { beta = v; if (alpha >= beta) break; }
        }
    }
    if (i < count) { e->stat[ST_CUT_NODES]++; e->stat[ST_CUT_FIRST] += i == 0; }
    else { e->stat[ST_ALL_NODES]++; e->stat[ST_ALL_MOVES] += count; }
    if (boundary) e->expanded_at[__builtin_popcountll(e->hands[seat])]++;
    if (boundary) store(e, key, cards_in(e), best, a0, b0, best_card);
    if (boundary && e->sim) sim_store(e, ckey, ch, live, best, a0, b0);
    return best;
}

#ifdef NEEDS_POPCNT
#pragma GCC pop_options
#endif

/* -- the Python type ---------------------------------------------------------------------------------- */

static int read_ints(PyObject *seq, int *out, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != N_CARDS) {
        PyErr_Format(PyExc_ValueError, "%s must have %d entries", what, N_CARDS);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < N_CARDS; i++) {
        out[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred()) { Py_DECREF(fast); return -1; }
    }
    Py_DECREF(fast);
    return 0;
}

static int read_masks(PyObject *seq, uint64_t *out, Py_ssize_t size, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != size) {
        PyErr_Format(PyExc_ValueError, "%s must have %zd entries", what, size);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        out[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred()) { Py_DECREF(fast); return -1; }
    }
    Py_DECREF(fast);
    return 0;
}

static void engine_dealloc(Engine *e) {
    Py_XDECREF(e->rules_obj);
    if (e->tt) table_free(e->tt, sizeof(Entry) * (size_t)(e->tt_mask + 1));
    if (e->sim) table_free(e->sim, sizeof(SimEntry) * (size_t)(e->sim_mask + 1));
    Py_TYPE(e)->tp_free((PyObject *)e);
}

static int engine_init(Engine *e, PyObject *args, PyObject *kw) {
    PyObject *rules, *thirds, *classes, *points, *beaters, *above;
    unsigned long long side;
    int tt_bits, start_bits;
    if (!PyArg_ParseTuple(args, "OiKiiiOOOOOiiip", &rules, &e->n, &side, &e->goal, &e->bonus_card, &e->bonus, &thirds,
                          &classes, &points, &beaters, &above, &start_bits, &tt_bits, &e->etc_min,
                          &e->settled))
        return -1;
    if (e->n < 2 || e->n > MAX_SEATS || start_bits < 4 || start_bits > tt_bits || tt_bits > 30 || e->goal < 0
        || e->goal > GOAL_ALL_TRICKS) {
        PyErr_SetString(PyExc_ValueError, "Engine: seats, goal or table size out of range");
        return -1;
    }
    e->rules = kernel->play_rules(rules);
    if (!e->rules) return -1;
    Py_INCREF(rules);
    Py_XSETREF(e->rules_obj, rules);
    e->side = side;
    e->bonus_bit = e->bonus_card >= 0 ? 1ULL << e->bonus_card : 0;
    if (read_ints(thirds, e->thirds, "thirds") < 0 || read_ints(classes, e->cls, "classes") < 0
        || read_ints(points, e->points_of, "points") < 0 || read_masks(beaters, e->beaters, N_CARDS, "beaters") < 0
        || read_masks(above, e->above, N_CARDS, "above") < 0)
        return -1;
    e->taroks = e->rules->trumps ? e->above[PAGAT_CARD] | 1ULL << PAGAT_CARD : 0;
    /* search.py's ``_blocks``: runs of two or more cards of one suit (``above`` chains them) and one class */
    e->nblocks = 0;
    e->runs = 0;
    int start = 0;
    for (int card = 1; card <= N_CARDS; card++) {
        int same = card < N_CARDS && (e->above[start] >> card & 1) && e->cls[card] == e->cls[start]
                   && (e->above[card - 1] >> card & 1);
        if (!same) {
            if (card - start >= 2) {
                uint64_t m = ((1ULL << (card - start)) - 1) << start;
                e->block_start[e->nblocks] = start;
                e->block_mask[e->nblocks++] = m;
                e->runs |= m;
            }
            start = card;
        }
    }
    /* payoff-similarity's coarse blocks (points goal only: elsewhere the runs are whole suits already): the taroks
     * II..XX (the trula's cards keep their identity: the emperor trick, the forced Pagat) and each plain suit less
     * the bonus card (the bring-home king: its trick brings the talon home) */
    e->nsuits = 0;
    e->suit_runs = 0;
    if (e->sim) table_free(e->sim, sizeof(SimEntry) * (size_t)(e->sim_mask + 1));
    e->sim = NULL;
    if (e->goal == GOAL_POINTS) {
        e->suit_block[e->nsuits++] = ((1ULL << MOND) - 1) & ~(1ULL << PAGAT_CARD);
        for (int s = 0; s < 4; s++) e->suit_block[e->nsuits++] = (0xFFULL << (22 + 8 * s)) & ~e->bonus_bit;
        for (int b = 0; b < e->nsuits; b++) e->suit_runs |= e->suit_block[b];
        size_t sim_size = (size_t)1 << start_bits;  /* as many entries as the main table, grown with it */
        e->sim = table_alloc(sim_size * sizeof(SimEntry));
        if (!e->sim) { PyErr_NoMemory(); return -1; }
        e->sim_mask = sim_size - 1;
    }
    if (e->tt) table_free(e->tt, sizeof(Entry) * (size_t)(e->tt_mask + 1));
    size_t size = (size_t)1 << start_bits;
    e->tt = table_alloc(size * sizeof(Entry));
    if (!e->tt) { PyErr_NoMemory(); return -1; }
    e->tt_mask = size - 1;
    e->tt_max = (uint64_t)1 << tt_bits;
    e->used = 0;
    return 0;
}

/* probe(hands, leader, trick, rem, alpha, beta, deadline=0.0) -> the future value of the position, fail-soft in
 * (alpha, beta), or None when the thread's CPU time (``time.thread_time``) passed ``deadline`` first (0: no
 * deadline; checked every 4,096 nodes): ``hands`` the seats' cards (masks), ``trick`` the cards on the table in
 * play order, ``rem`` search.py's ``_upper_bound``.  A stopped probe leaves the table as it was before the
 * unfinished nodes: only finished subtrees are ever stored. */
static PyObject *engine_probe(Engine *e, PyObject *args) {
    PyObject *hands, *trick;
    int leader, rem, alpha, beta;
    double deadline = 0.0;
    if (!PyArg_ParseTuple(args, "OiOiii|d", &hands, &leader, &trick, &rem, &alpha, &beta, &deadline)) return NULL;
    if (read_masks(hands, e->hands, e->n, "hands") < 0) return NULL;
    PyObject *fast = PySequence_Fast(trick, "trick");
    if (!fast) return NULL;
    Py_ssize_t pos = PySequence_Fast_GET_SIZE(fast);
    if (pos >= e->n || leader < 0 || leader >= e->n) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "probe: a trick of a complete table or a leader out of range");
        return NULL;
    }
    uint64_t tmask = 0, live = 0;
    int tval = 0, led = -1, wcard = -1, wseat = -1;
    for (Py_ssize_t i = 0; i < pos; i++) {
        long card = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (card < 0 || card >= N_CARDS) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "probe: a card out of range");
            return NULL;
        }
        e->tcards[i] = (int)card;
        tmask |= 1ULL << card;
        tval += e->thirds[card];
        if (i == 0 || (e->beaters[wcard] >> card & 1)) { wcard = (int)card; wseat = (leader + (int)i) % e->n; }
    }
    Py_DECREF(fast);
    if (pos) led = e->tcards[0];
    live = tmask;
    for (int i = 0; i < e->n; i++) live |= e->hands[i];
    e->deadline = deadline;
    e->stopped = 0;
    int v = visit(e, (leader + (int)pos) % e->n, (int)pos, led, wcard, wseat, tmask, tval, live, rem, alpha, beta);
    e->deadline = 0;
    if (e->stopped) {
        e->stopped = 0;
        Py_RETURN_NONE;
    }
    return PyLong_FromLong(v);
}

static PyObject *engine_clear(Engine *e, PyObject *unused) {
    memset(e->tt, 0, sizeof(Entry) * (size_t)(e->tt_mask + 1));
    if (e->sim) memset(e->sim, 0, sizeof(SimEntry) * (size_t)(e->sim_mask + 1));
    e->used = 0;
    e->nodes = 0;
    memset(e->stat, 0, sizeof e->stat);
    memset(e->visits_at, 0, sizeof e->visits_at);
    memset(e->expanded_at, 0, sizeof e->expanded_at);
    Py_RETURN_NONE;
}

static PyObject *engine_size(Engine *e, PyObject *unused) { return PyLong_FromSsize_t(e->used); }
static PyObject *engine_nodes(Engine *e, PyObject *unused) { return PyLong_FromLongLong(e->nodes); }

static PyObject *engine_stats(Engine *e, PyObject *unused) {
    PyObject *d = PyDict_New();
    for (int i = 0; d && i < N_STATS; i++) {
        PyObject *v = PyLong_FromLongLong(e->stat[i]);
        if (!v || PyDict_SetItemString(d, STAT_NAMES[i], v) < 0) { Py_XDECREF(v); Py_CLEAR(d); break; }
        Py_DECREF(v);
    }
    const char *names[2] = {"visits_at", "expanded_at"};
    const long long *rows[2] = {e->visits_at, e->expanded_at};
    for (int r = 0; d && r < 2; r++) {
        PyObject *list = PyList_New(MAX_TRICKS + 1);
        for (int i = 0; list && i <= MAX_TRICKS; i++) {
            PyObject *v = PyLong_FromLongLong(rows[r][i]);
            if (!v) { Py_CLEAR(list); break; }
            PyList_SET_ITEM(list, i, v);
        }
        if (!list || PyDict_SetItemString(d, names[r], list) < 0) Py_CLEAR(d);
        Py_XDECREF(list);
    }
    return d;
}

static PyMethodDef engine_methods[] = {
    {"probe", (PyCFunction)engine_probe, METH_VARARGS, "The future value of a position in a fail-soft window."},
    {"clear", (PyCFunction)engine_clear, METH_NOARGS, "Forget the transposition table."},
    {"size", (PyCFunction)engine_size, METH_NOARGS, "Positions held in the transposition table."},
    {"nodes", (PyCFunction)engine_nodes, METH_NOARGS, "Nodes visited since the table was made or cleared."},
    {"stats", (PyCFunction)engine_stats, METH_NOARGS, "The search's counters since the table was made or cleared."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tarock.accel._solver.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One game context's search and transposition table (tarock/solver/search.py's _core).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)engine_init,
    .tp_dealloc = (destructor)engine_dealloc,
    .tp_methods = engine_methods,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_solver", "The double-dummy solver's core in C.", -1, NULL};

PyMODINIT_FUNC PyInit__solver(void) {
    /* The kernel's rules, from its capsule; an ImportError when it is missing or was built from another
     * kernel.h: tarock.solver.compiled then leaves the compiled core off and the reference runs. */
    /* by the module, not PyCapsule_Import: tarock.accel imports this module while it is itself being imported */
    PyObject *fastplay = PyImport_ImportModule("tarock.accel._fastplay");
    if (!fastplay) return NULL;
    PyObject *capsule = PyObject_GetAttrString(fastplay, "KERNEL_API");
    Py_DECREF(fastplay);
    if (!capsule) return NULL;
    const KernelApi *api = (const KernelApi *)PyCapsule_GetPointer(capsule, KERNEL_API_CAPSULE);
    Py_DECREF(capsule);  /* the module keeps the capsule and its static table alive */
    kernel = kernel_api_checked(api, "tarock.accel._solver");
    if (!kernel) return NULL;
#ifdef NEEDS_POPCNT
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError, "tarock.accel._solver needs a CPU with POPCNT");
        return NULL;
    }
#endif
#ifdef HAVE_BMI2_PATH
    if (__builtin_cpu_supports("bmi2")) {
        sim_key = sim_key_bmi2;
        main_key = main_key_bmi2;
    }
#endif
    if (PyType_Ready(&EngineType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddObjectRef(m, "Engine", (PyObject *)&EngineType) < 0
        || PyModule_AddIntConstant(m, "GOAL_POINTS", GOAL_POINTS) < 0
        || PyModule_AddIntConstant(m, "GOAL_NO_TRICK", GOAL_NO_TRICK) < 0
        || PyModule_AddIntConstant(m, "GOAL_ALL_TRICKS", GOAL_ALL_TRICKS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

