/*
 * The kernel's C interface (tarock/accel/_fastplay.c) for another extension: the types of a whole clean
 * Slovenian deal's replay (``run_lane``) and the capsule through which ``tarock.accel._fastplay`` hands its
 * functions out.  ingest/_bulkrows.c (ingest's bulk path) and tarock/accel/_solver.c (the double-dummy solver's
 * core) include it; the kernel itself holds only rules.
 *
 * The rules a lane plays by (``LanePlan``) are filled by name, never by position: ``_fastplay.lane_plan``
 * reads each field named in ``PLAY_RULE_FIELDS`` / ``OUTCOME_RULE_FIELDS`` from a mapping that
 * tarock/accel/projection.py builds from the reference's own objects (docs/performance.md, "What runs
 * where").  The names are the C members' own (``FIELD`` in _fastplay.c), so a member renamed here is a
 * name the projection no longer finds, and the accelerator declines to load.
 */
#ifndef TAROCK_ACCEL_KERNEL_H
#define TAROCK_ACCEL_KERNEL_H

#include <Python.h>
#include <stdint.h>

#define N_CARDS 54
#define MAX_SEATS 4
#define MAX_TRICKS 18

/* The switches of the play rules (tarock.rules.play.FollowRules) and the two arguments the table rules give
 * beside them (tarock.rules.play.legal_mask's force_pagat, trick_winner's emperor). */
typedef struct {
    int trumps, void_tarok, negative, pagat_last, pagat_emperor, tarok_lead_last, force_pagat, emperor;
    uint64_t pagat_scope;
} Rules;

/* What a contract's outcome needs (tarock.rules.slovenian.contracts.Contract, the options, and
 * tarock.rules.slovenian.replay.mondfang_applies). */
typedef struct {
    int is_klop, talon_group, is_beggar, is_valat, normal, mondfang_applies, mondfang_any_side;
} OutcomeRules;

/* A contract under some options, as the lane plays it: made once per plan (``_fastplay.lane_plan``). */
typedef struct {
    Rules r;
    OutcomeRules o;
} LanePlan;

#define LANE_PLAN_CAPSULE "tarock.accel._fastplay.LanePlan"
#define RULES_CAPSULE "tarock.accel._fastplay.Rules"

typedef struct {
    int n, nt;                          /* players, tricks recorded */
    int cards[MAX_TRICKS][MAX_SEATS];   /* each trick's cards in play order */
    int who[MAX_TRICKS][MAX_SEATS];     /* the seat that played each card */
    int winners[MAX_TRICKS];
    uint64_t piles[MAX_SEATS];          /* the cards each seat took */
} Tricks;

/* One deal for ``run_lane``: the record's objects as they are (borrowed), the table's shape, the plan. */
typedef struct {
    PyObject *hands, *talon, *tricks, *names, *players, *pick, *stash, *called;
    int per_hand, declarer, leader, calls_king;
    const LanePlan *plan;
} LaneArgs;

typedef struct {
    Tricks tr;
    uint64_t hands[MAX_SEATS], pick, stash, declarer_hand;
    int partner, king_in_talon;
    PyObject *facts;  /* a new reference: the facts tuple, laid out as FACT_* below */
} LaneResult;

/* The facts tuple's fields, by position: exported by name as ``DECLARER_FACTS`` and ``KLOP_FACTS``
 * (_fastplay.c's ``declarer_fact_names`` / ``klop_fact_names``), which tarock/accel/projection.py reads. */
enum {
    FACT_DECLARER_POINTS, FACT_OPPONENTS_POINTS, FACT_VALAT_SIDE, FACT_TRULA_SIDE, FACT_KINGS_SIDE, FACT_PAGAT_LAST,
    FACT_KING_LAST, FACT_MONDFANG, FACT_LOST_TRICK, FACT_DECIDED, N_DECLARER_FACTS
};
enum { FACT_KLOP_POINTS, FACT_KLOP_TRICKS, N_KLOP_FACTS };

/* What ``tarock.accel._fastplay.KERNEL_API`` (a capsule named KERNEL_API_CAPSULE) points to.  A user checks
 * ``version`` and the sizes before calling anything: the two extensions are compiled separately. */
#define KERNEL_API_VERSION 2
#define KERNEL_API_CAPSULE "tarock.accel._fastplay.KERNEL_API"

typedef struct {
    int version;
    size_t size, args_size, result_size;
    /* 1 and ``res`` filled (its ``facts`` a new reference) for a clean deal, 0 to decline, -1 on an error. */
    int (*run_lane)(const LaneArgs *a, LaneResult *res);
    /* The index of ``name`` in the ``players`` tuple, or -1. */
    int (*seat_of)(PyObject *name, PyObject *players);
    /* The plan a ``lane_plan`` capsule holds; NULL with an exception set for anything else. */
    const LanePlan *(*lane_plan)(PyObject *capsule);
    /* The play rules a ``rules`` capsule holds (NULL with an exception set for anything else), the legal cards
     * of a hand (tarock.rules.play.legal_mask) and the winning place of a whole trick (trick_winner), mask for
     * mask: the simulator's compiled players (tarock/sim/_simplay.c) and the double-dummy solver
     * (tarock/accel/_solver.c) play by them rather than by a copy. */
    const Rules *(*play_rules)(PyObject *capsule);
    uint64_t (*legal_mask)(uint64_t hand, int led, int winner, uint64_t trick, const Rules *r);
    int (*trick_winner)(const int *cards, int n, int trumps, int emperor);
} KernelApi;

/* ``api`` (the kernel's capsule pointer, NULL when fetching it failed) when the kernel was built from this very
 * kernel.h, else NULL with an ImportError naming ``module``: every user of the capsule checks it so. */
static inline const KernelApi *kernel_api_checked(const KernelApi *api, const char *module) {
    if (!api) return NULL;
    if (api->version != KERNEL_API_VERSION || api->size != sizeof(KernelApi) || api->args_size != sizeof(LaneArgs)
        || api->result_size != sizeof(LaneResult)) {
        PyErr_Format(PyExc_ImportError, "%s was built against another tarock/accel/kernel.h", module);
        return NULL;
    }
    return api;
}


/* The declarer's seat for ``LaneArgs`` (-1: the contract has none), or -2 when the record's declarer disagrees
 * with whether its contract has one (none named, one not at the table, or one where nobody declares): the fast
 * paths decline such a record to the usual path, which reports it. */
static inline int lane_declarer_seat(const KernelApi *api, PyObject *declarer, PyObject *players, int has_declarer) {
    if (!has_declarer) return declarer == Py_None ? -1 : -2;
    if (declarer == Py_None) return -2;
    int seat = api->seat_of(declarer, players);
    return seat < 0 ? -2 : seat;
}

/* ``a`` for a decoded record's fields (borrowed) at a table of ``players``: the declarer's ``seat`` (from
 * ``lane_declarer_seat``) leads the first trick when the plan says the declarer leads, else seat 0 does. */
static inline void lane_args_of_record(LaneArgs *a, PyObject *hands, PyObject *talon, PyObject *tricks,
                                       PyObject *players, PyObject *pick, PyObject *stash, PyObject *called,
                                       int per_hand, int seat, int declarer_leads, int calls_king) {
    a->hands = hands; a->talon = talon; a->tricks = tricks; a->names = Py_None;
    a->players = players; a->pick = pick; a->stash = stash; a->called = called;
    a->per_hand = per_hand;
    a->declarer = seat;
    a->leader = seat >= 0 && declarer_leads ? seat : 0;
    a->calls_king = calls_king;
}

#endif
