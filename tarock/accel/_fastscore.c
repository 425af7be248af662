/*
 * The score of a clean Slovenian deal in C: tarock.rules.slovenian.scoring.score_deal without offenders, for ingest's
 * bulk path, with the breakdown written straight as the JSON ingest stores.  tarock.accel.scorer wraps it.
 *
 * This is an accelerator, not a second rulebook: tarock.rules.slovenian.scoring is the reference, and this module
 * is a projection of it.  It holds no sentence, value or threshold of the rules, and no order the reference keeps:
 * every enumeration it indexes by is exported by name (``COMPONENTS``, ``BONUSES``, ``ANNOUNCED``,
 * ``KONTRA_TARGETS``, ``KONTRAS``, ``KINDS``, ``ROUNDINGS``, ``SCOPES``, ``SIDES``, ``PAGAT_LAST``; what a plan holds,
 * ``PLAN`` and ``OPTION_VALUES``; the facts it reads, ``DECLARER_FACTS`` and ``KLOP_FACTS``; how each table ``init``
 * takes is laid out, ``TABLES`` and ``TEXTS``; the reference's constants it needs, ``CONSTANTS``), and
 * tarock.accel.scorer builds every table by looking those names up in the reference and the kernel.  ``init``
 * takes them in one dict, by the same names.  This file only decides which lines a deal has, in the reference's
 * order, and joins their pieces.  ``score`` answers for a deal it supports completely and returns None for anything
 * else, so the caller scores that deal with the reference.  tests/accel/test_fast_score.py checks both give
 * byte-identical results.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#define MAX_SEATS 4
#define MAX_CONTRACTS 16
#define MAX_POINTS 70    /* the card points of a pile: 0 .. 70 */
#define N_POINTS (MAX_POINTS + 1)
#define MAX_MONDFANG 4   /* Mondfang payers a deal may list (the kernel lists at most 2) */
#define MAX_LINES 16     /* a normal deal: 10 hand lines at most, the Mondfangs and the radelc */
#define JSON_SIZE 16384  /* the lines' JSON; a roster's escaped names are short enough (tarock.accel.scorer) */
#define MAX_FACTS 32     /* the longest facts tuple of the kernel's this module takes */

/* Each enumeration is a list of (identifier, name): the enum and the names exported come from the one list. */
#define ENUM_ID(id, name) id,
#define ENUM_NAME(id, name) name,

/* The components of a clean deal's lines (exported as ``COMPONENTS``); TRULA .. VALAT are the bonuses, in the
 * order of the bonus table (``BONUSES``). */
#define COMPONENT_LIST(X) \
    X(GAME, "game") X(DIFFERENCE, "difference") X(TRULA, "trula") X(KINGS, "kings") X(PAGAT_ULTIMO, "pagat_ultimo") \
    X(KING_ULTIMO, "king_ultimo") X(VALAT, "valat") X(MONDFANG, "mondfang") X(KLOP, "klop") X(RADELC, "radelc")
enum { COMPONENT_LIST(ENUM_ID) N_COMPONENTS };
static const char *const component_names[N_COMPONENTS] = {COMPONENT_LIST(ENUM_NAME)};
#define FIRST_BONUS TRULA
#define N_BONUSES (VALAT - TRULA + 1)

/* What can be announced (``ANNOUNCED``): per announcement, the sides that made it, in order, two bits each. */
#define ANNOUNCED_LIST(X) \
    X(A_TRULA, "trula") X(A_KINGS, "kings") X(A_PAGAT_ULTIMO, "pagat_ultimo") X(A_KING_ULTIMO, "king_ultimo") \
    X(A_VALAT, "valat") X(A_MONDFANG, "mondfang")
enum { ANNOUNCED_LIST(ENUM_ID) N_ANNOUNCED };
static const char *const announced_names[N_ANNOUNCED] = {ANNOUNCED_LIST(ENUM_NAME)};

/* The kontra chains scoring reads (``KONTRA_TARGETS``): per target, the index of its kontra in ``KONTRAS``. */
#define TARGET_LIST(X) \
    X(K_GAME, "game") X(K_PAGAT_ULTIMO, "pagat_ultimo") X(K_KING_ULTIMO, "king_ultimo") X(K_VALAT, "valat") \
    X(K_MONDFANG, "mondfang")
enum { TARGET_LIST(ENUM_ID) N_TARGETS };
static const char *const target_names[N_TARGETS] = {TARGET_LIST(ENUM_NAME)};

/* A line's kontra (``KONTRAS``): index 0 is none. */
#define N_KONTRA 5
static const int kontra_levels[N_KONTRA] = {1, 2, 4, 8, 16};

/* How a contract is scored (``KINDS``): Klop; game, difference and bonuses; flat, won without a trick / without
 * losing one / with the card points. */
#define KIND_LIST(X) \
    X(KIND_KLOP, "klop") X(KIND_NORMAL, "normal") X(KIND_NEGATIVE, "negative") X(KIND_VALAT, "valat") \
    X(KIND_POINTS, "points")
enum { KIND_LIST(ENUM_ID) N_KINDS };
static const char *const kind_names[N_KINDS] = {KIND_LIST(ENUM_NAME)};

/* diff_rounding's and radelc_scope's values (``ROUNDINGS``, ``SCOPES``): a plan holds the index. */
#define ROUNDING_LIST(X) X(ROUND_NEAREST5, "nearest5") X(ROUND_NONE, "none")
enum { ROUNDING_LIST(ENUM_ID) N_ROUNDINGS };
static const char *const rounding_names[N_ROUNDINGS] = {ROUNDING_LIST(ENUM_NAME)};
#define SCOPE_LIST(X) X(SCOPE_DECLARER, "declarer") X(SCOPE_EACH_PLAYER, "each_player")
enum { SCOPE_LIST(ENUM_ID) N_SCOPES };
static const char *const scope_names[N_SCOPES] = {SCOPE_LIST(ENUM_NAME)};

/* Sides as the kernel's facts code them (``SIDES``, checked against the kernel's at load; None for none). */
#define SIDE_LIST(X) X(NO_SIDE, NULL) X(OURS, "declarer") X(THEIRS, "opponents")
enum { SIDE_LIST(ENUM_ID) N_SIDES };
static const char *const side_names[N_SIDES] = {SIDE_LIST(ENUM_NAME)};

/* The Pagat in the last trick as the kernel codes it (``PAGAT_LAST``): 0 for none, else the side and whether the
 * Pagat won the trick. */
#define N_PAGAT_LAST 5
static inline int pagat_side(long code) { return OURS + (int)(code - 1) / 2; }
static inline int pagat_won(long code) { return (code - 1) % 2 == 1; }

/* What a plan holds, in order (``PLAN``): the contract's index, an option's value (by its index in the option's
 * values, ``OPTION_VALUES``), the Mondfang texts of the options (table ``mondfang``), the options themselves. */
enum { NO_VALUES, BOOLEAN_VALUES, ROUNDING_VALUES, SCOPE_VALUES };
#define PLAN_LIST(X) \
    X(PLAN_CONTRACT, "contract", NO_VALUES) X(PLAN_DIFF_ROUNDING, "diff_rounding", ROUNDING_VALUES) \
    X(PLAN_SILENT_PAGAT_FAILURE, "silent_pagat_failure", BOOLEAN_VALUES) X(PLAN_RADELCI, "radelci", BOOLEAN_VALUES) \
    X(PLAN_RADELC_SCOPE, "radelc_scope", SCOPE_VALUES) \
    X(PLAN_KLOP_RADELC_DOUBLE, "klop_radelc_double", BOOLEAN_VALUES) X(PLAN_MONDFANG, "mondfang", NO_VALUES) \
    X(PLAN_OPTIONS, "options", NO_VALUES)
#define PLAN_ID(id, name, values) id,
#define PLAN_NAME(id, name, values) name,
#define PLAN_VALUES(id, name, values) values,
enum { PLAN_LIST(PLAN_ID) N_PLAN };
static const char *const plan_names[N_PLAN] = {PLAN_LIST(PLAN_NAME)};
static const int plan_values[N_PLAN] = {PLAN_LIST(PLAN_VALUES)};

/* The facts this module reads of the kernel's facts tuples (``DECLARER_FACTS``, ``KLOP_FACTS``), by the kernel's
 * names; ``init`` says where each stands. */
#define FACT_LIST(X) \
    X(F_POINTS, "declarer_points") X(F_VALAT, "valat_side") X(F_TRULA, "trula_side") X(F_KINGS, "kings_side") \
    X(F_PAGAT, "pagat_last") X(F_KING, "king_last") X(F_MONDFANG, "mondfang") X(F_LOST, "lost_trick") \
    X(F_DECIDED, "decided")
enum { FACT_LIST(ENUM_ID) N_FACTS };
static const char *const fact_names[N_FACTS] = {FACT_LIST(ENUM_NAME)};
#define KLOP_FACT_LIST(X) X(KF_POINTS, "klop_points") X(KF_TRICKS, "klop_tricks")
enum { KLOP_FACT_LIST(ENUM_ID) N_KLOP_FACTS };
static const char *const klop_fact_names[N_KLOP_FACTS] = {KLOP_FACT_LIST(ENUM_NAME)};

/* The fields of a table's entries, in order. */
#define PART_FIELD_LIST(X) X(PART_DETAIL, "detail") X(PART_VALUE, "value") X(PART_FULL, "full")
enum { PART_FIELD_LIST(ENUM_ID) N_PART_FIELDS };
static const char *const part_fields[N_PART_FIELDS] = {PART_FIELD_LIST(ENUM_NAME)};
#define COMPONENT_FIELD_LIST(X) X(CF_NAME, "name") X(CF_INDEX, "index") X(CF_DOUBLED, "doubled")
enum { COMPONENT_FIELD_LIST(ENUM_ID) N_COMPONENT_FIELDS };
static const char *const component_fields[N_COMPONENT_FIELDS] = {COMPONENT_FIELD_LIST(ENUM_NAME)};
#define CONTRACT_FIELD_LIST(X) X(CT_KIND, "kind") X(CT_MONDFANG, "mondfang") X(CT_AWARD, "award")
enum { CONTRACT_FIELD_LIST(ENUM_ID) N_CONTRACT_FIELDS };
static const char *const contract_fields[N_CONTRACT_FIELDS] = {CONTRACT_FIELD_LIST(ENUM_NAME)};
#define MONDFANG_FIELD_LIST(X) X(MF_HEAD, "head") X(MF_TAIL, "tail") X(MF_VALUE, "value")
enum { MONDFANG_FIELD_LIST(ENUM_ID) N_MONDFANG_FIELDS };
static const char *const mondfang_fields[N_MONDFANG_FIELDS] = {MONDFANG_FIELD_LIST(ENUM_NAME)};

/* The tables ``init`` takes (``TABLES``): each a flat tuple over its dimensions (the first the slowest), each
 * entry a tuple of its fields.  ``mondfang`` is a plan's (per options: the sentence cut at the owner's name and
 * the value), the others ``init``'s. */
typedef struct {
    const char *name, *dims[6];
    const char *const *fields;
    int n_fields;
} TableSpec;
enum { T_COMPONENTS, T_CONTRACTS, T_GAME, T_DIFFERENCE, T_BONUS, T_KLOP, T_MONDFANG, N_TABLES };
static const TableSpec table_specs[N_TABLES] = {
    [T_COMPONENTS] = {"components", {"component"}, component_fields, N_COMPONENT_FIELDS},
    [T_CONTRACTS] = {"contracts", {"contract"}, contract_fields, N_CONTRACT_FIELDS},
    [T_GAME] = {"game", {"contract", "won", "kontra"}, part_fields, PART_VALUE + 1},
    [T_DIFFERENCE] = {"difference", {"points", "diff_rounding", "kontra"}, part_fields, PART_VALUE + 1},
    [T_BONUS] = {"bonus", {"bonus", "by_declarer", "made", "announced", "kontra"}, part_fields, PART_VALUE + 1},
    [T_KLOP] = {"klop", {"points", "took_trick"}, part_fields, N_PART_FIELDS},
    [T_MONDFANG] = {"mondfang", {"announced", "kontra"}, mondfang_fields, N_MONDFANG_FIELDS},
};

/* The sentences ``init`` takes cut around names and numbers (``TEXTS``): each a tuple of its pieces.  ``head``
 * comes first, ``tail`` last; ``holds`` stands between a player's name and the radelci they hold, ``separator``
 * between one player's and the next one's. */
#define DECLARER_PIECE_LIST(X) X(RD_HEAD, "head") X(RD_TAIL, "tail")
enum { DECLARER_PIECE_LIST(ENUM_ID) N_DECLARER_PIECES };
static const char *const declarer_pieces[N_DECLARER_PIECES] = {DECLARER_PIECE_LIST(ENUM_NAME)};
#define EACH_PIECE_LIST(X) X(RE_HEAD, "head") X(RE_HOLDS, "holds") X(RE_SEPARATOR, "separator") X(RE_TAIL, "tail")
enum { EACH_PIECE_LIST(ENUM_ID) N_EACH_PIECES };
static const char *const each_pieces[N_EACH_PIECES] = {EACH_PIECE_LIST(ENUM_NAME)};
#define KLOP_PIECE_LIST(X) X(RK_HEAD, "head") X(RK_HOLDS, "holds") X(RK_TAIL, "tail")
enum { KLOP_PIECE_LIST(ENUM_ID) N_KLOP_PIECES };
static const char *const klop_pieces[N_KLOP_PIECES] = {KLOP_PIECE_LIST(ENUM_NAME)};
typedef struct {
    const char *name;
    const char *const *pieces;
    int n_pieces;
} TextSpec;
enum { X_RADELC_DECLARER, X_RADELC_EACH, X_RADELC_KLOP, N_TEXTS };
static const TextSpec text_specs[N_TEXTS] = {
    [X_RADELC_DECLARER] = {"radelc_declarer", declarer_pieces, N_DECLARER_PIECES},
    [X_RADELC_EACH] = {"radelc_each", each_pieces, N_EACH_PIECES},
    [X_RADELC_KLOP] = {"radelc_klop", klop_pieces, N_KLOP_PIECES},
};

/* The reference's numbers ``init`` takes, by the reference's names (``CONSTANTS``). */
#define CONSTANT_LIST(X) X(C_WIN_THRESHOLD, "WIN_THRESHOLD") X(C_KLOP_FULL, "KLOP_FULL")
enum { CONSTANT_LIST(ENUM_ID) N_CONSTANTS };
static const char *const constant_names[N_CONSTANTS] = {CONSTANT_LIST(ENUM_NAME)};

typedef struct {
    const char *s;
    Py_ssize_t n;
} Text;

typedef struct {
    Text text;
    long value;
    int full;  /* Klop: a +-70 result */
} Part;

static PyObject *tables = NULL;  /* a copy of init's dict, kept: its bytes back every Text below */
static Text component_name[N_COMPONENTS];
static int component_index[N_COMPONENTS];  /* in tarock.rules.rulesets.ALL_COMPONENTS */
static int doubled_by_radelc[N_COMPONENTS];
static int n_contracts;
static struct { int kind, mondfang, award; } contracts[MAX_CONTRACTS];
static Part game[MAX_CONTRACTS][2][N_KONTRA];             /* contract, won, kontra */
static Part difference[N_POINTS][N_ROUNDINGS][N_KONTRA];  /* card points, diff_rounding, kontra */
static Part bonus[N_BONUSES][2][2][2][N_KONTRA];          /* bonus, by the declarer's side, made, announced,
                                                             kontra */
static Part klop[N_POINTS][2];                            /* card points, took a trick */
static Text radelc_declarer[N_DECLARER_PIECES], radelc_each[N_EACH_PIECES], radelc_klop[N_KLOP_PIECES];
static long constant[N_CONSTANTS];
static int fact_at[N_FACTS], n_declarer_facts, klop_fact_at[N_KLOP_FACTS], n_klop_facts;
static Py_ssize_t n_mondfang_texts;  /* a plan's Mondfang table's size */
static int ready = 0;

/* -- loading the tables --------------------------------------------------------------------------------- */

static int count_of(const char *const *names, int max) {
    int n = 0;
    while (n < max && names[n]) n++;
    return n;
}

static int dim_size(const char *dim) {
    /* How many values a table dimension has in this module's arrays; -1 for a dimension it does not know. */
    static const struct { const char *name; int size; } sizes[] = {
        {"component", N_COMPONENTS}, {"won", 2}, {"kontra", N_KONTRA}, {"points", N_POINTS},
        {"diff_rounding", N_ROUNDINGS}, {"bonus", N_BONUSES}, {"by_declarer", 2}, {"made", 2}, {"announced", 2},
        {"took_trick", 2},
    };
    if (strcmp(dim, "contract") == 0) return n_contracts;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(dim, sizes[i].name) == 0) return sizes[i].size;
    return -1;
}

static Py_ssize_t table_size(int t) {
    Py_ssize_t n = 1;
    for (int i = 0; i < 6 && table_specs[t].dims[i]; i++) n *= dim_size(table_specs[t].dims[i]);
    return n;
}

static PyObject *table_of(PyObject *given, const char *name, Py_ssize_t size, int width) {
    /* ``init``'s entry ``name``: a tuple of ``size`` entries, each a tuple of ``width`` fields (width 0: the
     * entries are not tuples).  A borrowed reference, or NULL with an exception. */
    PyObject *t = PyDict_GetItemString(given, name);
    if (!t || !PyTuple_Check(t) || PyTuple_GET_SIZE(t) != size) {
        PyErr_Format(PyExc_ValueError, "init: %s must be a tuple of %zd entries", name, size);
        return NULL;
    }
    for (Py_ssize_t i = 0; width && i < size; i++) {
        PyObject *item = PyTuple_GET_ITEM(t, i);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != width) {
            PyErr_Format(PyExc_ValueError, "init: each entry of %s must be a tuple of %d fields", name, width);
            return NULL;
        }
    }
    return t;
}

static int load_text(PyObject *o, Text *t) {
    if (!PyBytes_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "texts must be bytes");
        return -1;
    }
    t->s = PyBytes_AS_STRING(o);
    t->n = PyBytes_GET_SIZE(o);
    return 0;
}

static int load_parts(PyObject *given, int t, Part *out, Py_ssize_t capacity) {
    /* Table ``t``'s entries, each (detail, value) or (detail, value, full), into ``out``. */
    int width = table_specs[t].n_fields;
    Py_ssize_t size = table_size(t);
    if (size < 0 || size > capacity) {
        PyErr_Format(PyExc_ValueError, "init: %s does not fit", table_specs[t].name);
        return -1;
    }
    PyObject *seq = table_of(given, table_specs[t].name, size, width);
    if (!seq) return -1;
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *item = PyTuple_GET_ITEM(seq, i);
        if (load_text(PyTuple_GET_ITEM(item, PART_DETAIL), &out[i].text) < 0) return -1;
        out[i].value = PyLong_AsLong(PyTuple_GET_ITEM(item, PART_VALUE));
        out[i].full = width > PART_FULL ? PyObject_IsTrue(PyTuple_GET_ITEM(item, PART_FULL)) : 0;
        if (PyErr_Occurred()) return -1;
    }
    return 0;
}

static int load_pieces(PyObject *given, int x, Text *out) {
    int count = text_specs[x].n_pieces;
    PyObject *seq = table_of(given, text_specs[x].name, count, 0);
    if (!seq) return -1;
    for (int i = 0; i < count; i++)
        if (load_text(PyTuple_GET_ITEM(seq, i), &out[i]) < 0) return -1;
    return 0;
}

static int load_ints(PyObject *given, const char *name, const char *const *names, int count, long lo, long hi,
                     int *out, long *longs) {
    /* ``init``'s entry ``name``: a dict of ``names`` to whole numbers in [lo, hi], into ``out`` (or ``longs``). */
    PyObject *d = PyDict_GetItemString(given, name);
    if (!d || !PyDict_Check(d)) {
        PyErr_Format(PyExc_ValueError, "init: %s must be a dict", name);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        PyObject *v = PyDict_GetItemString(d, names[i]);
        long x = v && PyLong_Check(v) ? PyLong_AsLong(v) : LONG_MIN;
        if (PyErr_Occurred() || x < lo || x > hi) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "init: %s[%s] must be a whole number from %ld to %ld", name, names[i],
                         lo, hi);
            return -1;
        }
        if (out) out[i] = (int)x;
        else longs[i] = x;
    }
    return 0;
}

/* init(tables): the reference's texts and numbers and where the kernel's facts stand, in one dict, by name:
 * ``TABLES``' and ``TEXTS``' names, "constants" ({``CONSTANTS``' name: number}), "declarer_facts" and "klop_facts"
 * ({``DECLARER_FACTS``' / ``KLOP_FACTS``' name: its position in the kernel's tuple}, and "size": the tuple's
 * length).  tarock.accel.scorer builds it. */
static PyObject *py_init(PyObject *Py_UNUSED(self), PyObject *given) {
    if (!PyDict_Check(given)) {
        PyErr_SetString(PyExc_TypeError, "init takes a dict");
        return NULL;
    }
    ready = 0;
    PyObject *copy = PyDict_Copy(given);
    if (!copy) return NULL;
    Py_XSETREF(tables, copy);
    PyObject *kinds = PyDict_GetItemString(copy, table_specs[T_CONTRACTS].name);
    n_contracts = kinds && PyTuple_Check(kinds) ? (int)PyTuple_GET_SIZE(kinds) : -1;
    if (n_contracts < 0 || n_contracts > MAX_CONTRACTS) {
        PyErr_Format(PyExc_ValueError, "init: contracts must be a tuple of at most %d", MAX_CONTRACTS);
        return NULL;
    }
    if (!table_of(copy, table_specs[T_CONTRACTS].name, n_contracts, N_CONTRACT_FIELDS)) return NULL;
    for (int c = 0; c < n_contracts; c++) {
        PyObject *item = PyTuple_GET_ITEM(kinds, c);
        long kind = PyLong_AsLong(PyTuple_GET_ITEM(item, CT_KIND));
        contracts[c].kind = (int)kind;
        contracts[c].mondfang = PyObject_IsTrue(PyTuple_GET_ITEM(item, CT_MONDFANG));
        contracts[c].award = PyObject_IsTrue(PyTuple_GET_ITEM(item, CT_AWARD));
        if (PyErr_Occurred()) return NULL;
        if (kind < 0 || kind >= N_KINDS) {
            PyErr_SetString(PyExc_ValueError, "init: a contract's kind is an index in KINDS");
            return NULL;
        }
    }
    PyObject *components = table_of(copy, table_specs[T_COMPONENTS].name, N_COMPONENTS, N_COMPONENT_FIELDS);
    if (!components) return NULL;
    for (int c = 0; c < N_COMPONENTS; c++) {
        PyObject *item = PyTuple_GET_ITEM(components, c);
        if (load_text(PyTuple_GET_ITEM(item, CF_NAME), &component_name[c]) < 0) return NULL;
        component_index[c] = (int)PyLong_AsLong(PyTuple_GET_ITEM(item, CF_INDEX));
        doubled_by_radelc[c] = PyObject_IsTrue(PyTuple_GET_ITEM(item, CF_DOUBLED));
        if (PyErr_Occurred()) return NULL;
    }
    long sizes[2];
    static const char *const size_name[] = {"size"};
    if (load_parts(copy, T_GAME, &game[0][0][0], sizeof game / sizeof(Part)) < 0
        || load_parts(copy, T_DIFFERENCE, &difference[0][0][0], sizeof difference / sizeof(Part)) < 0
        || load_parts(copy, T_BONUS, &bonus[0][0][0][0][0], sizeof bonus / sizeof(Part)) < 0
        || load_parts(copy, T_KLOP, &klop[0][0], sizeof klop / sizeof(Part)) < 0
        || load_pieces(copy, X_RADELC_DECLARER, radelc_declarer) < 0
        || load_pieces(copy, X_RADELC_EACH, radelc_each) < 0
        || load_pieces(copy, X_RADELC_KLOP, radelc_klop) < 0
        || load_ints(copy, "constants", constant_names, N_CONSTANTS, LONG_MIN + 1, LONG_MAX, NULL, constant) < 0
        || load_ints(copy, "declarer_facts", size_name, 1, 0, MAX_FACTS, NULL, &sizes[0]) < 0
        || load_ints(copy, "klop_facts", size_name, 1, 0, MAX_FACTS, NULL, &sizes[1]) < 0
        || load_ints(copy, "declarer_facts", fact_names, N_FACTS, 0, sizes[0] - 1, fact_at, NULL) < 0
        || load_ints(copy, "klop_facts", klop_fact_names, N_KLOP_FACTS, 0, sizes[1] - 1, klop_fact_at, NULL) < 0)
        return NULL;
    n_declarer_facts = (int)sizes[0];
    n_klop_facts = (int)sizes[1];
    n_mondfang_texts = table_size(T_MONDFANG);
    ready = 1;
    Py_RETURN_NONE;
}

/* -- the breakdown being written ----------------------------------------------------------------------- */

typedef struct {
    int seats[2], n_seats, component;
    long value;
    Py_ssize_t start, end;  /* its JSON object in Sheet.json */
} Line;

typedef struct {
    int n;
    Text names[MAX_SEATS];       /* JSON-escaped */
    Line lines[MAX_LINES + 1];   /* the last: scratch for a line that does not fit (the call then declines) */
    int n_lines, overflow;
    Py_ssize_t len;
    char json[JSON_SIZE];
    char out[JSON_SIZE + MAX_LINES + 2];  /* one player's breakdown: a list of some of the lines */
} Sheet;

static void put(Sheet *sh, const char *s, Py_ssize_t n) {
    if (sh->len + n > JSON_SIZE) {
        sh->overflow = 1;
        return;
    }
    memcpy(sh->json + sh->len, s, (size_t)n);
    sh->len += n;
}

#define PUT_LITERAL(sh, lit) put((sh), (lit), (Py_ssize_t)sizeof(lit) - 1)

static void put_text(Sheet *sh, Text t) { put(sh, t.s, t.n); }

static void put_number(Sheet *sh, long long v) {
    /* ``v`` in decimal, as Python's str(int) writes it (snprintf would cost more than the rest of a line). */
    char buf[24], *p = buf + sizeof buf;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do *--p = (char)('0' + u % 10); while (u /= 10);
    if (v < 0) *--p = '-';
    put(sh, p, buf + sizeof buf - p);
}

static Line *begin_line(Sheet *sh, int component, const int *seats, int n_seats) {
    /* A line's JSON up to its detail, which the caller writes, then ``end_line``. */
    Line *l = &sh->lines[sh->n_lines < MAX_LINES ? sh->n_lines++ : MAX_LINES];
    if (l == &sh->lines[MAX_LINES]) sh->overflow = 1;
    l->component = component;
    l->n_seats = n_seats;
    l->start = sh->len;
    PUT_LITERAL(sh, "{\"players\":[");
    for (int i = 0; i < n_seats; i++) {
        l->seats[i] = seats[i];
        if (i) PUT_LITERAL(sh, ",");
        PUT_LITERAL(sh, "\"");
        put_text(sh, sh->names[seats[i]]);
        PUT_LITERAL(sh, "\"");
    }
    PUT_LITERAL(sh, "],\"component\":\"");
    put_text(sh, component_name[component]);
    PUT_LITERAL(sh, "\",\"detail\":\"");
    return l;
}

static void end_line(Sheet *sh, Line *l, long value) {
    /* The line's value; a value the component triples cannot hold (int32) makes the call decline. */
    PUT_LITERAL(sh, "\",\"value\":");
    put_number(sh, value);
    PUT_LITERAL(sh, "}");
    if (value > INT32_MAX || value < INT32_MIN) sh->overflow = 1;
    l->value = value;
    l->end = sh->len;
}

static void part_line(Sheet *sh, int component, const int *seats, int n_seats, const Part *p) {
    Line *l = begin_line(sh, component, seats, n_seats);
    put_text(sh, p->text);
    end_line(sh, l, p->value);
}

/* -- the deal ------------------------------------------------------------------------------------------- */

typedef struct {
    int contract, kind, declarer, ours[MAX_SEATS];
    int playing[2], n_playing;  /* who writes the hand: the declarer, then the partner */
    int option[N_PLAN];         /* the plan's option values, each an index in its OPTION_VALUES */
    PyObject *mondfang_texts;   /* the plan's: table ``mondfang`` */
    int announcers[N_ANNOUNCED], kontra[N_TARGETS];
    long long before[MAX_SEATS];
    int won;                    /* 1, 0, or -1 for none (Klop) */
    int valat_scored;
} Deal;

static int read_long(PyObject *o, long lo, long hi, long *out) {
    /* An int in [lo, hi] into ``out``: 0, else -1 (no exception left set). */
    int overflow;
    long v = PyLong_Check(o) ? PyLong_AsLongAndOverflow(o, &overflow) : (overflow = 1, 0);
    if (overflow || (v == -1 && PyErr_Occurred()) || v < lo || v > hi) {
        PyErr_Clear();
        return -1;
    }
    *out = v;
    return 0;
}

static void bonus_line(Sheet *sh, const Deal *d, int component, int side, int made, int announced,
                       int kontra) {
    part_line(sh, component, d->playing, d->n_playing,
              &bonus[component - FIRST_BONUS][side == OURS][made != 0][announced][kontra]);
}

static void collection_lines(Sheet *sh, const Deal *d, int component, int announcement, long holder) {
    /* Trula or all kings: each announcement made or failed, else a silent one for its holder. */
    int code = d->announcers[announcement];
    if (code)
        for (; code; code >>= 2) bonus_line(sh, d, component, code & 3, holder == (code & 3), 1, 0);
    else if (holder)
        bonus_line(sh, d, component, (int)holder, 1, 0, 0);
}

static int mondfang_lines(Sheet *sh, const Deal *d, PyObject *seats) {
    /* -value to each captured Mond's owner (the plan's texts); -1 with an exception for a broken plan. */
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(seats); i++) {
        int seat = (int)PyLong_AsLong(PyTuple_GET_ITEM(seats, i)), announced = 0;
        for (int code = d->announcers[A_MONDFANG]; code; code >>= 2)
            if ((code & 3) != (d->ours[seat] ? OURS : THEIRS)) announced = 1;
        PyObject *t = PyTuple_GET_ITEM(d->mondfang_texts, announced * N_KONTRA + d->kontra[K_MONDFANG]);
        Text head, tail;
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != N_MONDFANG_FIELDS
            || load_text(PyTuple_GET_ITEM(t, MF_HEAD), &head) < 0
            || load_text(PyTuple_GET_ITEM(t, MF_TAIL), &tail) < 0) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "a Mondfang text is (head, tail, value)");
            return -1;
        }
        long value = PyLong_AsLong(PyTuple_GET_ITEM(t, MF_VALUE));
        if (value == -1 && PyErr_Occurred()) return -1;
        Line *l = begin_line(sh, MONDFANG, &seat, 1);
        put_text(sh, head);
        put_text(sh, sh->names[seat]);
        put_text(sh, tail);
        end_line(sh, l, value);
    }
    return 0;
}

static int read_declarer_facts(PyObject *facts, int n, long *f, PyObject **payers) {
    /* The facts into ``f`` (``payers``: the Mondfang payers, each seat checked): 0, or -1 to decline. */
    static const long hi[N_FACTS] = {[F_POINTS] = MAX_POINTS, [F_VALAT] = THEIRS, [F_TRULA] = THEIRS,
                                     [F_KINGS] = THEIRS, [F_PAGAT] = N_PAGAT_LAST - 1, [F_KING] = THEIRS,
                                     [F_LOST] = LONG_MAX, [F_DECIDED] = LONG_MAX};
    static const long lo[N_FACTS] = {[F_LOST] = LONG_MIN, [F_DECIDED] = LONG_MIN};
    if (!PyTuple_Check(facts) || PyTuple_GET_SIZE(facts) != n_declarer_facts) return -1;
    for (int i = 0; i < N_FACTS; i++)
        if (i != F_MONDFANG && read_long(PyTuple_GET_ITEM(facts, fact_at[i]), lo[i], hi[i], &f[i]) < 0) return -1;
    PyObject *seats = PyTuple_GET_ITEM(facts, fact_at[F_MONDFANG]);
    if (!PyTuple_Check(seats) || PyTuple_GET_SIZE(seats) > MAX_MONDFANG) return -1;
    long seat;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(seats); i++)
        if (read_long(PyTuple_GET_ITEM(seats, i), 0, n - 1, &seat) < 0) return -1;
    *payers = seats;
    return 0;
}

static int score_normal(Sheet *sh, Deal *d, const long *f, PyObject *payers) {
    /* scoring._score_normal: a valat line alone, else game, difference, bonuses and Mondfangs. */
    int valat_by = d->announcers[A_VALAT] & 3;
    if (valat_by || f[F_VALAT]) {
        if (valat_by)
            bonus_line(sh, d, VALAT, valat_by, f[F_VALAT] == valat_by, 1, d->kontra[K_VALAT]);
        else
            bonus_line(sh, d, VALAT, (int)f[F_VALAT], 1, 0, d->kontra[K_GAME]);
        d->won = sh->lines[0].value > 0;
        d->valat_scored = 1;
        return 0;
    }
    long points = f[F_POINTS];
    d->won = points >= constant[C_WIN_THRESHOLD];
    part_line(sh, GAME, d->playing, d->n_playing, &game[d->contract][d->won][d->kontra[K_GAME]]);
    part_line(sh, DIFFERENCE, d->playing, d->n_playing,
              &difference[points][d->option[PLAN_DIFF_ROUNDING]][d->kontra[K_GAME]]);
    collection_lines(sh, d, TRULA, A_TRULA, f[F_TRULA]);
    collection_lines(sh, d, KINGS, A_KINGS, f[F_KINGS]);
    long pagat = f[F_PAGAT];
    int code = d->announcers[A_PAGAT_ULTIMO];
    if (code) {
        for (; code; code >>= 2)
            bonus_line(sh, d, PAGAT_ULTIMO, code & 3, pagat && pagat_side(pagat) == (code & 3) && pagat_won(pagat),
                       1, d->kontra[K_PAGAT_ULTIMO]);
    } else if (pagat && (pagat_won(pagat) || d->option[PLAN_SILENT_PAGAT_FAILURE])) {
        bonus_line(sh, d, PAGAT_ULTIMO, pagat_side(pagat), pagat_won(pagat), 0, 0);
    }
    code = d->announcers[A_KING_ULTIMO];
    if (code) {
        for (; code; code >>= 2)
            bonus_line(sh, d, KING_ULTIMO, code & 3, f[F_KING] == (code & 3), 1, d->kontra[K_KING_ULTIMO]);
    } else if (f[F_KING] == OURS) {
        bonus_line(sh, d, KING_ULTIMO, OURS, 1, 0, 0);
    }
    return mondfang_lines(sh, d, payers);
}

static int score_higher(Sheet *sh, Deal *d, const long *f, PyObject *payers) {
    /* scoring._score_higher: +-value x the game kontra; Solo brez keeps its Mondfangs. */
    int kind = contracts[d->contract].kind;
    if (kind == KIND_NEGATIVE) d->won = !(f[F_DECIDED] > 0);
    else if (kind == KIND_VALAT) d->won = !(f[F_LOST] > 0);
    else d->won = f[F_POINTS] >= constant[C_WIN_THRESHOLD];
    part_line(sh, GAME, d->playing, d->n_playing, &game[d->contract][d->won][d->kontra[K_GAME]]);
    if (!contracts[d->contract].mondfang) return 0;
    return mondfang_lines(sh, d, payers);
}

static int score_klop(Sheet *sh, Deal *d, PyObject *facts) {
    /* scoring._score_klop: each player alone; when anyone is at +-70, only they score.  -1 to decline. */
    const Part *result[MAX_SEATS];
    int anyone_full = 0;
    if (!PyTuple_Check(facts) || PyTuple_GET_SIZE(facts) != n_klop_facts) return -1;
    PyObject *points = PyTuple_GET_ITEM(facts, klop_fact_at[KF_POINTS]);
    PyObject *tricks = PyTuple_GET_ITEM(facts, klop_fact_at[KF_TRICKS]);
    if (!PyTuple_Check(points) || !PyTuple_Check(tricks) || PyTuple_GET_SIZE(points) != sh->n
        || PyTuple_GET_SIZE(tricks) != sh->n)
        return -1;
    for (int s = 0; s < sh->n; s++) {
        long p, t;
        if (read_long(PyTuple_GET_ITEM(points, s), 0, MAX_POINTS, &p) < 0
            || read_long(PyTuple_GET_ITEM(tricks, s), LONG_MIN, LONG_MAX, &t) < 0)
            return -1;
        result[s] = &klop[p][t != 0];
        anyone_full |= result[s]->full;
    }
    for (int s = 0; s < sh->n; s++)
        if (result[s]->full || !anyone_full) part_line(sh, KLOP, &s, 1, result[s]);
    d->won = -1;
    return 0;
}

static void radelc_lines(Sheet *sh, Deal *d, int *cancelled) {
    /* scoring._radelc_lines (someone holds a radelc): the doubling lines and the radelci the hand cancels. */
    if (d->kind == KIND_KLOP) {
        int n_play = sh->n_lines;
        for (int i = 0; i < n_play; i++) {
            int seat = sh->lines[i].seats[0];
            long value = sh->lines[i].value;
            if (d->before[seat] < 1) continue;
            if (d->option[PLAN_KLOP_RADELC_DOUBLE]) {
                Line *l = begin_line(sh, RADELC, &seat, 1);
                put_text(sh, radelc_klop[RK_HEAD]);
                put_text(sh, sh->names[seat]);
                put_text(sh, radelc_klop[RK_HOLDS]);
                put_number(sh, d->before[seat]);
                put_text(sh, radelc_klop[RK_TAIL]);
                end_line(sh, l, value);
            }
            if (value == constant[C_KLOP_FULL]) cancelled[seat] = 1;
        }
        return;
    }
    int each_player = d->option[PLAN_RADELC_SCOPE] == SCOPE_EACH_PLAYER;
    int doubled[2], n_doubled = 0;
    for (int i = 0; i < d->n_playing; i++)
        if (each_player ? d->before[d->playing[i]] >= 1 : d->before[d->declarer] >= 1)
            doubled[n_doubled++] = d->playing[i];
    if (!n_doubled) return;
    long base = 0;
    for (int i = 0; i < sh->n_lines; i++) {
        const Line *l = &sh->lines[i];
        int lists = l->seats[0] == doubled[0] || (l->n_seats > 1 && l->seats[1] == doubled[0]);
        if (lists && doubled_by_radelc[l->component]) base += l->value;
    }
    Line *l = begin_line(sh, RADELC, doubled, n_doubled);
    if (each_player) {
        put_text(sh, radelc_each[RE_HEAD]);
        for (int i = 0; i < n_doubled; i++) {
            if (i) put_text(sh, radelc_each[RE_SEPARATOR]);
            put_text(sh, sh->names[doubled[i]]);
            put_text(sh, radelc_each[RE_HOLDS]);
            put_number(sh, d->before[doubled[i]]);
        }
        put_text(sh, radelc_each[RE_TAIL]);
    } else {
        put_text(sh, radelc_declarer[RD_HEAD]);
        put_number(sh, d->before[d->declarer]);
        put_text(sh, radelc_declarer[RD_TAIL]);
    }
    end_line(sh, l, base);
    if (d->won == 1)
        for (int i = 0; i < (each_player ? n_doubled : 1); i++) cancelled[doubled[i]] = 1;
}

/* -- the call ------------------------------------------------------------------------------------------- */

static PyObject *breakdown_of(Sheet *sh, int seat) {
    /* The JSON list of the lines listing ``seat`` (every line for -1): str, or bytes for -1. */
    Py_ssize_t len = 0;
    sh->out[len++] = '[';
    for (int i = 0; i < sh->n_lines; i++) {
        const Line *l = &sh->lines[i];
        if (seat >= 0 && l->seats[0] != seat && !(l->n_seats > 1 && l->seats[1] == seat)) continue;
        if (len > 1) sh->out[len++] = ',';
        memcpy(sh->out + len, sh->json + l->start, (size_t)(l->end - l->start));
        len += l->end - l->start;
    }
    sh->out[len++] = ']';
    return seat < 0 ? PyBytes_FromStringAndSize(sh->out, len) : PyUnicode_DecodeUTF8(sh->out, len, NULL);
}

static void put_le32(char *p, int32_t v) {
    uint32_t u = (uint32_t)v;
    p[0] = (char)(u & 0xff);
    p[1] = (char)(u >> 8 & 0xff);
    p[2] = (char)(u >> 16 & 0xff);
    p[3] = (char)(u >> 24 & 0xff);
}

static int values_count(int values) {
    /* How many values an option of OPTION_VALUES has. */
    return values == BOOLEAN_VALUES ? 2 : values == ROUNDING_VALUES ? N_ROUNDINGS : N_SCOPES;
}

static int read_plan(PyObject *plan, Deal *d) {
    /* tarock.accel.scorer's plan (``PLAN``): -1 with an exception when it is not one. */
    long v;
    if (!PyTuple_Check(plan) || PyTuple_GET_SIZE(plan) != N_PLAN
        || !PyTuple_Check(PyTuple_GET_ITEM(plan, PLAN_MONDFANG))
        || PyTuple_GET_SIZE(PyTuple_GET_ITEM(plan, PLAN_MONDFANG)) != n_mondfang_texts)
        goto bad;
    if (read_long(PyTuple_GET_ITEM(plan, PLAN_CONTRACT), 0, n_contracts - 1, &v) < 0) goto bad;
    d->contract = (int)v;
    d->kind = contracts[d->contract].kind;
    for (int i = 0; i < N_PLAN; i++) {
        if (plan_values[i] == NO_VALUES) continue;
        if (read_long(PyTuple_GET_ITEM(plan, i), 0, values_count(plan_values[i]) - 1, &v) < 0) goto bad;
        d->option[i] = (int)v;
    }
    d->mondfang_texts = PyTuple_GET_ITEM(plan, PLAN_MONDFANG);
    return 0;
bad:
    PyErr_SetString(PyExc_TypeError, "score: not a plan of tarock.accel.scorer");
    return -1;
}

static int read_extra(PyObject *extra, Deal *d) {
    /* None, or per announcement (``ANNOUNCED``) its announcers' code and per kontra target (``KONTRA_TARGETS``)
     * its index in ``KONTRAS``: 0, or -1 to decline. */
    memset(d->announcers, 0, sizeof d->announcers);
    memset(d->kontra, 0, sizeof d->kontra);
    if (extra == Py_None) return 0;
    if (!PyTuple_Check(extra) || PyTuple_GET_SIZE(extra) != N_ANNOUNCED + N_TARGETS) return -1;
    long v;
    for (int i = 0; i < N_ANNOUNCED + N_TARGETS; i++) {
        int is_kontra = i >= N_ANNOUNCED;
        if (read_long(PyTuple_GET_ITEM(extra, i), 0, is_kontra ? N_KONTRA - 1 : 15, &v) < 0) return -1;
        if (is_kontra) d->kontra[i - N_ANNOUNCED] = (int)v;
        else d->announcers[i] = (int)v;
    }
    for (int i = 0; i < N_ANNOUNCED; i++)  /* each side a 1 or a 2, no side twice */
        for (int code = d->announcers[i]; code; code >>= 2)
            if ((code & 3) == NO_SIDE || (code & 3) == 3 || (code >> 2) == (code & 3)) return -1;
    return 0;
}

/* score(plan, roster, declarer, partner, facts, before, first_row, components, extra, whole=False)
 *   -> (won, scores, radelci after, breakdown JSON per player) or None; with ``whole`` true, a fifth item: the
 *   JSON list of every line (bytes), the ``breakdown`` of a check result (tarock.accel.checkline).
 * tarock.accel.scorer.score_lane's work (its docstring says what each argument is); None to decline. */
static PyObject *py_score(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9 && nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "score takes 9 or 10 arguments");
        return NULL;
    }
    int whole = nargs == 10 ? PyObject_IsTrue(args[9]) : 0;
    if (whole < 0) return NULL;
    PyObject *roster = args[1], *facts = args[4], *before_t = args[5], *components = args[7];
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "tarock.accel._fastscore.init was not called");
        return NULL;
    }
    if (!PyTuple_Check(roster) || !PyTuple_Check(before_t) || !PyByteArray_Check(components)) {
        PyErr_SetString(PyExc_TypeError, "score: roster and before must be tuples, components a bytearray");
        return NULL;
    }
    Deal d;
    if (read_plan(args[0], &d) < 0) return NULL;
    Sheet sh;
    sh.n = (int)PyTuple_GET_SIZE(roster);
    sh.n_lines = sh.overflow = 0;
    sh.len = 0;
    if (sh.n < 3 || sh.n > MAX_SEATS || PyTuple_GET_SIZE(before_t) != sh.n || read_extra(args[8], &d) < 0)
        Py_RETURN_NONE;
    for (int s = 0; s < sh.n; s++)
        if (load_text(PyTuple_GET_ITEM(roster, s), &sh.names[s]) < 0) return NULL;
    long first_row, declarer = -1, partner = -1;
    if (read_long(args[6], 0, INT32_MAX - MAX_SEATS, &first_row) < 0) Py_RETURN_NONE;
    if (d.kind != KIND_KLOP
        && (read_long(args[2], 0, sh.n - 1, &declarer) < 0
            || (args[3] != Py_None
                && (read_long(args[3], 0, sh.n - 1, &partner) < 0 || partner == declarer))))
        Py_RETURN_NONE;
    d.declarer = (int)declarer;
    d.n_playing = 0;
    if (declarer >= 0) d.playing[d.n_playing++] = (int)declarer;
    if (partner >= 0) d.playing[d.n_playing++] = (int)partner;
    int anyone_holds = 0;
    for (int s = 0; s < sh.n; s++) {
        int overflow;
        d.ours[s] = s == declarer || s == partner;
        PyObject *b = PyTuple_GET_ITEM(before_t, s);
        d.before[s] = PyLong_Check(b) ? PyLong_AsLongLongAndOverflow(b, &overflow) : (overflow = 1, 0);
        if (overflow || (d.before[s] == -1 && PyErr_Occurred()) || d.before[s] < 0
            || d.before[s] == LLONG_MAX) {
            PyErr_Clear();
            Py_RETURN_NONE;
        }
        anyone_holds |= d.before[s] > 0;
    }
    d.valat_scored = 0;
    if (d.kind == KIND_KLOP) {
        if (score_klop(&sh, &d, facts) < 0) Py_RETURN_NONE;
    } else {
        long f[N_FACTS];
        PyObject *payers;
        if (read_declarer_facts(facts, sh.n, f, &payers) < 0) Py_RETURN_NONE;
        if ((d.kind == KIND_NORMAL ? score_normal(&sh, &d, f, payers) : score_higher(&sh, &d, f, payers)) < 0)
            return NULL;
    }
    int cancelled[MAX_SEATS] = {0};
    if (d.option[PLAN_RADELCI] && anyone_holds) radelc_lines(&sh, &d, cancelled);
    if (sh.overflow) Py_RETURN_NONE;
    int award = d.option[PLAN_RADELCI] && (contracts[d.contract].award || d.valat_scored);

    long scores[MAX_SEATS] = {0};
    Py_ssize_t pairs = 0;
    for (int i = 0; i < sh.n_lines; i++)
        for (int j = 0; j < sh.lines[i].n_seats; j++, pairs++)
            scores[sh.lines[i].seats[j]] += sh.lines[i].value;
    PyObject *result = PyTuple_New(whole ? 5 : 4), *score_t = PyTuple_New(sh.n), *after_t = PyTuple_New(sh.n),
             *json_t = PyTuple_New(sh.n);
    if (!result || !score_t || !after_t || !json_t) goto fail;
    PyObject *won = d.won < 0 ? Py_None : d.won ? Py_True : Py_False;
    Py_INCREF(won);
    PyTuple_SET_ITEM(result, 0, won);
    for (int s = 0; s < sh.n; s++) {
        PyObject *score = PyLong_FromLong(scores[s]);
        PyObject *after = PyLong_FromLongLong(d.before[s] - cancelled[s] + award);
        PyObject *json = breakdown_of(&sh, s);
        if (score) PyTuple_SET_ITEM(score_t, s, score);
        if (after) PyTuple_SET_ITEM(after_t, s, after);
        if (json) PyTuple_SET_ITEM(json_t, s, json);
        if (!score || !after || !json) goto fail;
    }
    PyTuple_SET_ITEM(result, 1, score_t);
    PyTuple_SET_ITEM(result, 2, after_t);
    PyTuple_SET_ITEM(result, 3, json_t);
    score_t = after_t = json_t = NULL;
    if (whole) {
        PyObject *all = breakdown_of(&sh, -1);
        if (!all) goto fail;
        PyTuple_SET_ITEM(result, 4, all);
    }
    /* last, so nothing is appended unless the call succeeds: (row, component, value) per line and player */
    Py_ssize_t old = PyByteArray_GET_SIZE(components);
    if (PyByteArray_Resize(components, old + 12 * pairs) < 0) goto fail;
    char *p = PyByteArray_AS_STRING(components) + old;
    for (int i = 0; i < sh.n_lines; i++)
        for (int j = 0; j < sh.lines[i].n_seats; j++, p += 12) {
            put_le32(p, (int32_t)(first_row + sh.lines[i].seats[j]));
            put_le32(p + 4, component_index[sh.lines[i].component]);
            put_le32(p + 8, (int32_t)sh.lines[i].value);
        }
    return result;
fail:
    Py_XDECREF(result);
    Py_XDECREF(score_t);
    Py_XDECREF(after_t);
    Py_XDECREF(json_t);
    return NULL;
}

/* -- the names, exported -------------------------------------------------------------------------------- */

static PyObject *names_tuple(const char *const *names, int count) {
    /* The names, None where there is none. */
    PyObject *out = PyTuple_New(count);
    if (!out) return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *name = names[i] ? PyUnicode_InternFromString(names[i]) : Py_NewRef(Py_None);
        if (!name) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, name);
    }
    return out;
}

static PyObject *kontras_tuple(void) {
    PyObject *out = PyTuple_New(N_KONTRA);
    for (int i = 0; out && i < N_KONTRA; i++) {
        PyObject *k = PyLong_FromLong(kontra_levels[i]);
        if (!k) {
            Py_CLEAR(out);
            break;
        }
        PyTuple_SET_ITEM(out, i, k);
    }
    return out;
}

static PyObject *pagat_last_tuple(void) {
    /* Per code: None, or (the side's name, the Pagat won the trick), as pagat_side and pagat_won read it. */
    PyObject *out = PyTuple_New(N_PAGAT_LAST);
    if (!out) return NULL;
    PyTuple_SET_ITEM(out, 0, Py_NewRef(Py_None));
    for (int code = 1; code < N_PAGAT_LAST; code++) {
        PyObject *entry = Py_BuildValue("(sO)", side_names[pagat_side(code)], pagat_won(code) ? Py_True : Py_False);
        if (!entry) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, code, entry);
    }
    return out;
}

static PyObject *option_values_dict(void) {
    /* {an option PLAN holds: its values, each at the index a plan holds}. */
    PyObject *out = PyDict_New();
    for (int i = 0; out && i < N_PLAN; i++) {
        PyObject *values;
        switch (plan_values[i]) {
        case NO_VALUES:
            continue;
        case BOOLEAN_VALUES:
            values = PyTuple_Pack(2, Py_False, Py_True);
            break;
        case ROUNDING_VALUES:
            values = names_tuple(rounding_names, N_ROUNDINGS);
            break;
        default:
            values = names_tuple(scope_names, N_SCOPES);
        }
        if (!values || PyDict_SetItemString(out, plan_names[i], values) < 0) Py_CLEAR(out);
        Py_XDECREF(values);
    }
    return out;
}

static PyObject *tables_dict(void) {
    /* {table: (its dimensions, its entries' fields)}. */
    PyObject *out = PyDict_New();
    for (int t = 0; out && t < N_TABLES; t++) {
        PyObject *dims = names_tuple(table_specs[t].dims, count_of(table_specs[t].dims, 6));
        PyObject *fields = names_tuple(table_specs[t].fields, table_specs[t].n_fields);
        PyObject *spec = dims && fields ? PyTuple_Pack(2, dims, fields) : NULL;
        if (!spec || PyDict_SetItemString(out, table_specs[t].name, spec) < 0) Py_CLEAR(out);
        Py_XDECREF(dims);
        Py_XDECREF(fields);
        Py_XDECREF(spec);
    }
    return out;
}

static PyObject *texts_dict(void) {
    /* {text: its pieces' names}. */
    PyObject *out = PyDict_New();
    for (int x = 0; out && x < N_TEXTS; x++) {
        PyObject *pieces = names_tuple(text_specs[x].pieces, text_specs[x].n_pieces);
        if (!pieces || PyDict_SetItemString(out, text_specs[x].name, pieces) < 0) Py_CLEAR(out);
        Py_XDECREF(pieces);
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

static PyMethodDef methods[] = {
    {"init", py_init, METH_O, "Load the reference's texts and numbers, by name (tarock.accel.scorer)."},
    {"score", (PyCFunction)(void (*)(void))py_score, METH_FASTCALL,
     "A clean Slovenian deal's score and breakdown JSON (tarock.accel.scorer.score_lane), else None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastscore", "The scorer of a clean Slovenian deal in C.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fastscore(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (add_new(m, "COMPONENTS", names_tuple(component_names, N_COMPONENTS)) < 0
        || add_new(m, "BONUSES", names_tuple(component_names + FIRST_BONUS, N_BONUSES)) < 0
        || add_new(m, "ANNOUNCED", names_tuple(announced_names, N_ANNOUNCED)) < 0
        || add_new(m, "KONTRA_TARGETS", names_tuple(target_names, N_TARGETS)) < 0
        || add_new(m, "KONTRAS", kontras_tuple()) < 0
        || add_new(m, "KINDS", names_tuple(kind_names, N_KINDS)) < 0
        || add_new(m, "ROUNDINGS", names_tuple(rounding_names, N_ROUNDINGS)) < 0
        || add_new(m, "SCOPES", names_tuple(scope_names, N_SCOPES)) < 0
        || add_new(m, "SIDES", names_tuple(side_names, N_SIDES)) < 0
        || add_new(m, "PAGAT_LAST", pagat_last_tuple()) < 0
        || add_new(m, "PLAN", names_tuple(plan_names, N_PLAN)) < 0
        || add_new(m, "OPTION_VALUES", option_values_dict()) < 0
        || add_new(m, "DECLARER_FACTS", names_tuple(fact_names, N_FACTS)) < 0
        || add_new(m, "KLOP_FACTS", names_tuple(klop_fact_names, N_KLOP_FACTS)) < 0
        || add_new(m, "TABLES", tables_dict()) < 0
        || add_new(m, "TEXTS", texts_dict()) < 0
        || add_new(m, "CONSTANTS", names_tuple(constant_names, N_CONSTANTS)) < 0
        || PyModule_AddIntConstant(m, "MAX_POINTS", MAX_POINTS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
