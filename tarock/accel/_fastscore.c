/*
 * The score of a clean Slovenian deal in C: tarock.rules.slovenian.scoring.score_deal without offenders, for ingest's bulk
 * path, with the breakdown written straight as the JSON ingest stores.  tarock.accel.scorer wraps it.
 *
 * This is an accelerator, not a second rulebook: tarock.rules.slovenian.scoring is the reference.  Every sentence, value and
 * threshold comes from it -- ``init`` receives the texts the scoring module's own tables and helpers wrote
 * (already JSON-escaped), per (contract, options) plan the Mondfang texts, per roster the escaped names --
 * and this file only decides which lines a deal has, in the reference's order, and joins their pieces.
 * ``score`` answers for a deal it supports completely and returns None for anything else, so the caller
 * scores that deal with the reference.  tests/accel/test_fast_score.py checks both give byte-identical results.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#define MAX_SEATS 4
#define MAX_CONTRACTS 16
#define N_POINTS 71      /* card points 0 .. 70 */
#define N_KONTRA 5       /* a line's kontra: 1, 2, 4, 8 or 16 */
#define MAX_MONDFANG 4   /* Mondfang payers a deal may list (the kernel lists at most 2) */
#define MAX_LINES 16     /* a normal deal: 10 hand lines at most, the Mondfangs and the radelc */
#define JSON_SIZE 16384  /* the lines' JSON; a roster's escaped names are short enough (fast_score) */

/* The components a clean deal's lines have, in the order ``init`` receives them; TRULA .. VALAT are the
 * bonuses, in the order of the bonus table. */
enum {
    GAME, DIFFERENCE, TRULA, KINGS, PAGAT_ULTIMO, KING_ULTIMO, VALAT, MONDFANG, KLOP, RADELC, N_COMPONENTS
};
#define N_BONUSES (VALAT - TRULA + 1)

/* How a contract is scored: Klop; Tri .. Solo ena; flat, won without a trick / without losing one / with
 * the card points. */
enum { KIND_KLOP, KIND_NORMAL, KIND_NEGATIVE, KIND_VALAT, KIND_POINTS };

/* Sides as the kernel codes them (tarock.accel._fastplay.lane): none, the declarer's side, the opponents. */
enum { NO_SIDE, OURS, THEIRS };

/* Per announced bonus (the bonuses, A_X being X - TRULA, then Mondfang) the sides that announced it, in order,
 * two bits each; per kontra target the kontra's index (0: none). */
enum { A_TRULA, A_KINGS, A_PAGAT_ULTIMO, A_KING_ULTIMO, A_VALAT, A_MONDFANG, N_ANNOUNCED };
enum { K_GAME, K_PAGAT_ULTIMO, K_KING_ULTIMO, K_VALAT, K_MONDFANG, N_TARGETS };

typedef struct {
    const char *s;
    Py_ssize_t n;
} Text;

typedef struct {
    Text text;
    long value;
    int full;  /* Klop: a +-70 result */
} Part;

static PyObject *tables = NULL;  /* init's arguments, kept: their bytes back every Text below */
static Text component_name[N_COMPONENTS];
static int component_index[N_COMPONENTS];  /* in tarock.rules.rulesets.ALL_COMPONENTS */
static int doubled_by_radelc[N_COMPONENTS];
static int n_contracts;
static struct { int kind, mondfang, award; } contracts[MAX_CONTRACTS];
static Part game[MAX_CONTRACTS][2][N_KONTRA];             /* contract, won, kontra */
static Part difference[N_POINTS][2][N_KONTRA];            /* card points, diff_rounding none, kontra */
static Part bonus[N_BONUSES][2][2][2][N_KONTRA];          /* bonus, by the declarer's side, made, announced,
                                                             kontra */
static Part klop[N_POINTS][2];                            /* card points, took a trick */
static Text radelc_declarer[2], radelc_each[4], radelc_klop[3];  /* the pieces around names and numbers */
static long win_threshold, klop_full;
static int ready = 0;

/* -- loading the tables --------------------------------------------------------------------------------- */

static int load_text(PyObject *o, Text *t) {
    if (!PyBytes_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "texts must be bytes");
        return -1;
    }
    t->s = PyBytes_AS_STRING(o);
    t->n = PyBytes_GET_SIZE(o);
    return 0;
}

static int load_texts(PyObject *seq, Text *out, Py_ssize_t count) {
    /* ``count`` texts from a tuple of bytes. */
    if (!PyTuple_Check(seq) || PyTuple_GET_SIZE(seq) != count) {
        PyErr_Format(PyExc_ValueError, "a tuple of %zd texts expected", count);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++)
        if (load_text(PyTuple_GET_ITEM(seq, i), &out[i]) < 0) return -1;
    return 0;
}

static int load_parts(PyObject *seq, Part *out, Py_ssize_t count) {
    /* ``count`` parts from a tuple of (text, value) or (text, value, full). */
    if (!PyTuple_Check(seq) || PyTuple_GET_SIZE(seq) != count) {
        PyErr_Format(PyExc_ValueError, "a tuple of %zd parts expected", count);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *item = PyTuple_GET_ITEM(seq, i);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) < 2 || PyTuple_GET_SIZE(item) > 3) {
            PyErr_SetString(PyExc_ValueError, "a part is (text, value) or (text, value, full)");
            return -1;
        }
        if (load_text(PyTuple_GET_ITEM(item, 0), &out[i].text) < 0) return -1;
        out[i].value = PyLong_AsLong(PyTuple_GET_ITEM(item, 1));
        out[i].full = PyTuple_GET_SIZE(item) == 3 ? PyObject_IsTrue(PyTuple_GET_ITEM(item, 2)) : 0;
        if (PyErr_Occurred()) return -1;
    }
    return 0;
}

/* init(components, contracts, games, differences, bonuses, klops, radelc_declarer, radelc_each, radelc_klop,
 *      win_threshold, klop_full): the reference's texts and numbers (tarock.accel.scorer._tables says how each
 * table is laid out).  components: per component (escaped name, index in ALL_COMPONENTS, doubled by a
 * radelc); contracts: per contract (kind, Mondfang applies, everyone gets a radelc). */
static PyObject *py_init(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *components, *kinds, *games, *differences, *bonuses, *klops, *declarer_t, *each_t, *klop_t;
    long threshold, full;
    if (!PyArg_ParseTuple(args, "O!O!OOOOOOOll", &PyTuple_Type, &components, &PyTuple_Type, &kinds, &games,
                          &differences, &bonuses, &klops, &declarer_t, &each_t, &klop_t, &threshold, &full))
        return NULL;
    ready = 0;
    Py_INCREF(args);
    Py_XSETREF(tables, args);
    if (PyTuple_GET_SIZE(components) != N_COMPONENTS) {
        PyErr_Format(PyExc_ValueError, "%d components expected", N_COMPONENTS);
        return NULL;
    }
    for (int c = 0; c < N_COMPONENTS; c++) {
        PyObject *item = PyTuple_GET_ITEM(components, c);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 3) {
            PyErr_SetString(PyExc_ValueError, "a component is (name, index, doubled)");
            return NULL;
        }
        if (load_text(PyTuple_GET_ITEM(item, 0), &component_name[c]) < 0) return NULL;
        component_index[c] = (int)PyLong_AsLong(PyTuple_GET_ITEM(item, 1));
        doubled_by_radelc[c] = PyObject_IsTrue(PyTuple_GET_ITEM(item, 2));
    }
    n_contracts = (int)PyTuple_GET_SIZE(kinds);
    if (n_contracts > MAX_CONTRACTS) {
        PyErr_Format(PyExc_ValueError, "at most %d contracts", MAX_CONTRACTS);
        return NULL;
    }
    for (int c = 0; c < n_contracts; c++) {
        PyObject *item = PyTuple_GET_ITEM(kinds, c);
        if (!PyArg_ParseTuple(item, "iii", &contracts[c].kind, &contracts[c].mondfang, &contracts[c].award))
            return NULL;
    }
    if (PyErr_Occurred() || load_parts(games, &game[0][0][0], (Py_ssize_t)n_contracts * 2 * N_KONTRA) < 0
        || load_parts(differences, &difference[0][0][0], N_POINTS * 2 * N_KONTRA) < 0
        || load_parts(bonuses, &bonus[0][0][0][0][0], N_BONUSES * 2 * 2 * 2 * N_KONTRA) < 0
        || load_parts(klops, &klop[0][0], N_POINTS * 2) < 0 || load_texts(declarer_t, radelc_declarer, 2) < 0
        || load_texts(each_t, radelc_each, 4) < 0 || load_texts(klop_t, radelc_klop, 3) < 0)
        return NULL;
    win_threshold = threshold;
    klop_full = full;
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
    PUT_LITERAL(sh, "\",\"value\":");
    put_number(sh, value);
    PUT_LITERAL(sh, "}");
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
    int rounding_none, silent_pagat_failure, radelci, each_player, klop_double;
    PyObject *mondfang_texts;   /* the plan's: per (announced, kontra) (before the name, after it, value) */
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
              &bonus[component - TRULA][side == OURS][made != 0][announced][kontra]);
}

static void collection_lines(Sheet *sh, const Deal *d, int component, long holder) {
    /* Trula or all kings: each announcement made or failed, else a silent one for its holder. */
    int code = d->announcers[component - TRULA];
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
        Text before, after;
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 3 || load_text(PyTuple_GET_ITEM(t, 0), &before) < 0
            || load_text(PyTuple_GET_ITEM(t, 1), &after) < 0) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "a Mondfang text is (before the name, after it, value)");
            return -1;
        }
        long value = PyLong_AsLong(PyTuple_GET_ITEM(t, 2));
        if (value == -1 && PyErr_Occurred()) return -1;
        Line *l = begin_line(sh, MONDFANG, &seat, 1);
        put_text(sh, before);
        put_text(sh, sh->names[seat]);
        put_text(sh, after);
        end_line(sh, l, value);
    }
    return 0;
}

/* The declarer's facts tuple: (declarer side's points, opponents' points, valat side, trula side, kings
 * side, pagat last, king last, Mondfang payers, lost a trick, deciding trick). */
enum { F_POINTS, F_VALAT = 2, F_TRULA, F_KINGS, F_PAGAT, F_KING, F_MONDFANG, F_LOST, F_DECIDED, N_FACTS };

static int read_declarer_facts(PyObject *facts, int n, long *f) {
    /* The facts into ``f`` (F_MONDFANG: the payers' count, each seat checked): 0, or -1 to decline. */
    static const long hi[N_FACTS] = {N_POINTS - 1, N_POINTS - 1, THEIRS, THEIRS, THEIRS, 4, THEIRS, 0,
                                     LONG_MAX, LONG_MAX};
    if (!PyTuple_Check(facts) || PyTuple_GET_SIZE(facts) != N_FACTS) return -1;
    for (int i = 0; i < N_FACTS; i++)
        if (i != F_MONDFANG
            && read_long(PyTuple_GET_ITEM(facts, i), i < F_LOST ? 0 : LONG_MIN, hi[i], &f[i]) < 0)
            return -1;
    PyObject *seats = PyTuple_GET_ITEM(facts, F_MONDFANG);
    if (!PyTuple_Check(seats) || PyTuple_GET_SIZE(seats) > MAX_MONDFANG) return -1;
    long seat;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(seats); i++)
        if (read_long(PyTuple_GET_ITEM(seats, i), 0, n - 1, &seat) < 0) return -1;
    f[F_MONDFANG] = (long)PyTuple_GET_SIZE(seats);
    return 0;
}

static int score_normal(Sheet *sh, Deal *d, const long *f, PyObject *facts) {
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
    d->won = points >= win_threshold;
    part_line(sh, GAME, d->playing, d->n_playing, &game[d->contract][d->won][d->kontra[K_GAME]]);
    part_line(sh, DIFFERENCE, d->playing, d->n_playing,
              &difference[points][d->rounding_none][d->kontra[K_GAME]]);
    collection_lines(sh, d, TRULA, f[F_TRULA]);
    collection_lines(sh, d, KINGS, f[F_KINGS]);
    long pagat = f[F_PAGAT];  /* 0, or 1 + 2 * (side - 1) + (the Pagat won the last trick) */
    int code = d->announcers[A_PAGAT_ULTIMO];
    if (code) {
        for (; code; code >>= 2)
            bonus_line(sh, d, PAGAT_ULTIMO, code & 3, pagat == 2 * (code & 3), 1, d->kontra[K_PAGAT_ULTIMO]);
    } else if (pagat && (!(pagat & 1) || d->silent_pagat_failure)) {
        bonus_line(sh, d, PAGAT_ULTIMO, (int)(pagat + 1) / 2, !(pagat & 1), 0, 0);
    }
    code = d->announcers[A_KING_ULTIMO];
    if (code) {
        for (; code; code >>= 2)
            bonus_line(sh, d, KING_ULTIMO, code & 3, f[F_KING] == (code & 3), 1, d->kontra[K_KING_ULTIMO]);
    } else if (f[F_KING] == OURS) {
        bonus_line(sh, d, KING_ULTIMO, OURS, 1, 0, 0);
    }
    return mondfang_lines(sh, d, PyTuple_GET_ITEM(facts, F_MONDFANG));
}

static int score_higher(Sheet *sh, Deal *d, const long *f, PyObject *facts) {
    /* scoring._score_higher: +-value x the game kontra; Solo brez keeps its Mondfangs. */
    int kind = contracts[d->contract].kind;
    if (kind == KIND_NEGATIVE) d->won = !(f[F_DECIDED] > 0);
    else if (kind == KIND_VALAT) d->won = !(f[F_LOST] > 0);
    else d->won = f[F_POINTS] >= win_threshold;
    part_line(sh, GAME, d->playing, d->n_playing, &game[d->contract][d->won][d->kontra[K_GAME]]);
    if (!contracts[d->contract].mondfang) return 0;
    return mondfang_lines(sh, d, PyTuple_GET_ITEM(facts, F_MONDFANG));
}

static int score_klop(Sheet *sh, Deal *d, PyObject *facts) {
    /* scoring._score_klop: each player alone; when anyone is at +-70, only they score.  -1 to decline. */
    const Part *result[MAX_SEATS];
    int anyone_full = 0;
    if (!PyTuple_Check(facts) || PyTuple_GET_SIZE(facts) != 2) return -1;
    PyObject *points = PyTuple_GET_ITEM(facts, 0), *tricks = PyTuple_GET_ITEM(facts, 1);
    if (!PyTuple_Check(points) || !PyTuple_Check(tricks) || PyTuple_GET_SIZE(points) != sh->n
        || PyTuple_GET_SIZE(tricks) != sh->n)
        return -1;
    for (int s = 0; s < sh->n; s++) {
        long p, t;
        if (read_long(PyTuple_GET_ITEM(points, s), 0, N_POINTS - 1, &p) < 0
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
            if (d->klop_double) {
                Line *l = begin_line(sh, RADELC, &seat, 1);
                put_text(sh, radelc_klop[0]);
                put_text(sh, sh->names[seat]);
                put_text(sh, radelc_klop[1]);
                put_number(sh, d->before[seat]);
                put_text(sh, radelc_klop[2]);
                end_line(sh, l, value);
            }
            if (value == klop_full) cancelled[seat] = 1;
        }
        return;
    }
    int doubled[2], n_doubled = 0;
    for (int i = 0; i < d->n_playing; i++)
        if (d->each_player ? d->before[d->playing[i]] >= 1 : d->before[d->declarer] >= 1)
            doubled[n_doubled++] = d->playing[i];
    if (!n_doubled) return;
    long base = 0;
    for (int i = 0; i < sh->n_lines; i++) {
        const Line *l = &sh->lines[i];
        int lists = l->seats[0] == doubled[0] || (l->n_seats > 1 && l->seats[1] == doubled[0]);
        if (lists && doubled_by_radelc[l->component]) base += l->value;
    }
    Line *l = begin_line(sh, RADELC, doubled, n_doubled);
    if (d->each_player) {
        put_text(sh, radelc_each[0]);
        for (int i = 0; i < n_doubled; i++) {
            if (i) put_text(sh, radelc_each[2]);
            put_text(sh, sh->names[doubled[i]]);
            put_text(sh, radelc_each[1]);
            put_number(sh, d->before[doubled[i]]);
        }
        put_text(sh, radelc_each[3]);
    } else {
        put_text(sh, radelc_declarer[0]);
        put_number(sh, d->before[d->declarer]);
        put_text(sh, radelc_declarer[1]);
    }
    end_line(sh, l, base);
    if (d->won == 1)
        for (int i = 0; i < (d->each_player ? n_doubled : 1); i++) cancelled[doubled[i]] = 1;
}

/* -- the call ------------------------------------------------------------------------------------------- */

static PyObject *breakdown_of(Sheet *sh, int seat) {
    /* The JSON list of the lines listing ``seat``, as str. */
    Py_ssize_t len = 0;
    sh->out[len++] = '[';
    for (int i = 0; i < sh->n_lines; i++) {
        const Line *l = &sh->lines[i];
        if (l->seats[0] != seat && !(l->n_seats > 1 && l->seats[1] == seat)) continue;
        if (len > 1) sh->out[len++] = ',';
        memcpy(sh->out + len, sh->json + l->start, (size_t)(l->end - l->start));
        len += l->end - l->start;
    }
    sh->out[len++] = ']';
    return PyUnicode_DecodeUTF8(sh->out, len, NULL);
}

static void put_le32(char *p, int32_t v) {
    uint32_t u = (uint32_t)v;
    p[0] = (char)(u & 0xff);
    p[1] = (char)(u >> 8 & 0xff);
    p[2] = (char)(u >> 16 & 0xff);
    p[3] = (char)(u >> 24 & 0xff);
}

static int read_plan(PyObject *plan, Deal *d) {
    /* (contract index, rounding none, silent pagat failure, radelci, each player, klop radelc double,
     *  Mondfang texts, options): fast_score._new_plan's; -1 with an exception when it is not one. */
    long v[6];
    if (!PyTuple_Check(plan) || PyTuple_GET_SIZE(plan) != 8 || !PyTuple_Check(PyTuple_GET_ITEM(plan, 6))
        || PyTuple_GET_SIZE(PyTuple_GET_ITEM(plan, 6)) != 2 * N_KONTRA)
        goto bad;
    for (int i = 0; i < 6; i++)
        if (read_long(PyTuple_GET_ITEM(plan, i), 0, i ? 1 : n_contracts - 1, &v[i]) < 0) goto bad;
    d->contract = (int)v[0];
    d->kind = contracts[d->contract].kind;
    d->rounding_none = (int)v[1];
    d->silent_pagat_failure = (int)v[2];
    d->radelci = (int)v[3];
    d->each_player = (int)v[4];
    d->klop_double = (int)v[5];
    d->mondfang_texts = PyTuple_GET_ITEM(plan, 6);
    return 0;
bad:
    PyErr_SetString(PyExc_TypeError, "score: not a plan of tarock.accel.scorer");
    return -1;
}

static int read_extra(PyObject *extra, Deal *d) {
    /* None, or per announced bonus its announcers' code and per kontra target its index: 0, or -1 to
     * decline. */
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

/* score(plan, roster, declarer, partner, facts, before, first_row, components, extra)
 *   -> (won, scores, radelci after, breakdown JSON per player) or None.
 * fast_score.score_lane's work (its docstring says what each argument is); None to decline. */
static PyObject *py_score(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "score takes 9 arguments");
        return NULL;
    }
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
        if (read_declarer_facts(facts, sh.n, f) < 0) Py_RETURN_NONE;
        if ((d.kind == KIND_NORMAL ? score_normal(&sh, &d, f, facts) : score_higher(&sh, &d, f, facts)) < 0)
            return NULL;
    }
    int cancelled[MAX_SEATS] = {0};
    if (d.radelci && anyone_holds) radelc_lines(&sh, &d, cancelled);
    if (sh.overflow) Py_RETURN_NONE;
    int award = d.radelci && (contracts[d.contract].award || d.valat_scored);

    long scores[MAX_SEATS] = {0};
    Py_ssize_t pairs = 0;
    for (int i = 0; i < sh.n_lines; i++)
        for (int j = 0; j < sh.lines[i].n_seats; j++, pairs++)
            scores[sh.lines[i].seats[j]] += sh.lines[i].value;
    PyObject *result = PyTuple_New(4), *score_t = PyTuple_New(sh.n), *after_t = PyTuple_New(sh.n),
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

static PyMethodDef methods[] = {
    {"init", py_init, METH_VARARGS, "Load the reference's texts and numbers (tarock.accel.scorer)."},
    {"score", (PyCFunction)(void (*)(void))py_score, METH_FASTCALL,
     "A clean Slovenian deal's score and breakdown JSON (tarock.accel.scorer.score_lane), else None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastscore", "The scorer of a clean Slovenian deal in C.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fastscore(void) { return PyModule_Create(&module); }
