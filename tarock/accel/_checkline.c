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
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "kernel.h"

static const KernelApi *kernel = NULL;
static PyObject *code_texts = NULL;  /* tuple: the JSON text (bytes) of each card code, by card index */
static long card_points[N_CARDS];

/* The decoded record's attributes read here. */
#define ATTRS(X)                                                                                                  \
    X(A_HANDS, "hands") X(A_TALON, "talon") X(A_TRICKS, "tricks") X(A_CALLED, "called_king") X(A_PICK, "talon_pick") \
    X(A_STASH, "stash") X(A_DECLARER, "declarer")
#define ENUM(id, name) id,
#define NAME(id, name) name,
enum { ATTRS(ENUM) N_ATTRS };
static const char *attr_texts[N_ATTRS] = {ATTRS(NAME)};
static PyObject *attr_names[N_ATTRS];

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
        long p = PyLong_AsLong(PyTuple_GET_ITEM(points, c));
        if (p == -1 && PyErr_Occurred()) return NULL;
        card_points[c] = p;
    }
    for (int i = 0; i < N_ATTRS; i++)
        if (!attr_names[i] && !(attr_names[i] = PyUnicode_InternFromString(attr_texts[i]))) return NULL;
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

static int write_tricks(Buf *b, const Tricks *tr, PyObject *names) {
    /* The check result's ``tricks``: [{"leader","players","cards","winner","points"}, ...]. */
    if (PUT_LITERAL(b, "[") < 0) return -1;
    for (int t = 0; t < tr->nt; t++) {
        long points = 0;
        if ((t && PUT_LITERAL(b, ",") < 0) || PUT_LITERAL(b, "{\"leader\":") < 0
            || put_bytes(b, PyTuple_GET_ITEM(names, tr->who[t][0])) < 0 || PUT_LITERAL(b, ",\"players\":[") < 0)
            return -1;
        for (int i = 0; i < tr->n; i++)
            if ((i && PUT_LITERAL(b, ",") < 0) || put_bytes(b, PyTuple_GET_ITEM(names, tr->who[t][i])) < 0) return -1;
        if (PUT_LITERAL(b, "],\"cards\":[") < 0) return -1;
        for (int i = 0; i < tr->n; i++) {
            points += card_points[tr->cards[t][i]];
            if ((i && PUT_LITERAL(b, ",") < 0) || put_bytes(b, PyTuple_GET_ITEM(code_texts, tr->cards[t][i])) < 0)
                return -1;
        }
        if (PUT_LITERAL(b, "],\"winner\":") < 0 || put_bytes(b, PyTuple_GET_ITEM(names, tr->winners[t])) < 0
            || PUT_LITERAL(b, ",\"points\":") < 0 || put_number(b, points) < 0 || PUT_LITERAL(b, "}") < 0)
            return -1;
    }
    return PUT_LITERAL(b, "]");
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
    LaneArgs a;
    lane_args_of_record(&a, field[A_HANDS], field[A_TALON], field[A_TRICKS], players, field[A_PICK], field[A_STASH],
                        field[A_CALLED], per_hand, seat, declarer_leads, calls_king);
    if (!(a.plan = kernel->lane_plan(plan))) goto done;
    LaneResult res;
    int rc = kernel->run_lane(&a, &res);
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

static PyMethodDef methods[] = {
    {"init", py_init, METH_VARARGS, "The JSON text of every card code and every card's points, by card index."},
    {"replay", py_replay, METH_VARARGS, "A plain clean Slovenian record's seats, facts and tricks JSON, else None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_checkline", "tarock check's fast path in C.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__checkline(void) {
    /* The kernel's functions, from the capsule it exports; an ImportError when it is missing or was built from
     * another kernel.h: tarock.accel.checkline then leaves the fast path off. */
    kernel = kernel_api_checked((const KernelApi *)PyCapsule_Import(KERNEL_API_CAPSULE, 0),
                                "tarock.accel._checkline");
    if (!kernel) return NULL;
    return PyModule_Create(&module);
}
