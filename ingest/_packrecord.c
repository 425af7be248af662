/*
 * The ``record_packed`` codec in C (ingest/packed_record.py): the byte loops of ``pack_text`` and
 * ``unpack_bytes`` over a whole Arrow column at once.  A projection of that Python reference, kept equal to it
 * by tests/ingest/test_packed_record.py; the card codes come from ``init`` (tarock.cards.CODES), never from a
 * copy kept here.
 *
 * ``pack(data, offsets)`` / ``unpack(data, offsets)``: ``data`` the column's bytes, ``offsets`` its n + 1 value
 * offsets as int64 (Arrow's large string / binary layout, not necessarily from 0); both return
 * ``(bytes, offsets as bytes of int64 from 0)``.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_CARDS 64
#define MAX_CODE 3

static int n_cards = 0;
static unsigned char code_text[MAX_CARDS][MAX_CODE];
static int code_len[MAX_CARDS];
static unsigned char card_byte = 0, last_card_byte = 0, escape_byte = 0;

static int16_t card_of1[256], card_of2[256][256];  /* the card of a 1- or 2-byte code, -1: none */
static int long_cards[MAX_CARDS], n_long = 0;     /* the cards of 3-byte codes */
static unsigned char special[256];                 /* the bytes packing looks at: a quote, the card bytes */

/* The card whose quoted code starts at data[p] within [p, end), its quoted length in *len; -1 when none. */
static int code_at(const unsigned char *data, Py_ssize_t p, Py_ssize_t end, int *len) {
    if (p >= end || data[p] != '"') return -1;
    if (p + 2 < end && data[p + 2] == '"' && card_of1[data[p + 1]] >= 0) {
        *len = 3;
        return card_of1[data[p + 1]];
    }
    if (p + 3 < end && data[p + 3] == '"' && card_of2[data[p + 1]][data[p + 2]] >= 0) {
        *len = 4;
        return card_of2[data[p + 1]][data[p + 2]];
    }
    if (p + 4 < end && data[p + 4] == '"') {
        for (int k = 0; k < n_long; k++) {
            int c = long_cards[k];
            if (memcmp(data + p + 1, code_text[c], 3) == 0) {
                *len = 5;
                return c;
            }
        }
    }
    return -1;
}

static int get_offsets(PyObject *obj, Py_buffer *view, Py_ssize_t *n) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->len % 8 != 0 || view->len < 8) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "offsets: n + 1 int64 values");
        return -1;
    }
    *n = view->len / 8 - 1;
    return 0;
}

static PyObject *run(PyObject *args, int packing) {
    PyObject *data_obj, *offsets_obj;
    if (!PyArg_ParseTuple(args, "OO", &data_obj, &offsets_obj)) return NULL;
    if (n_cards == 0) {
        PyErr_SetString(PyExc_RuntimeError, "init() was not called");
        return NULL;
    }
    Py_buffer dv, ov;
    Py_ssize_t n;
    if (PyObject_GetBuffer(data_obj, &dv, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (get_offsets(offsets_obj, &ov, &n) < 0) {
        PyBuffer_Release(&dv);
        return NULL;
    }
    const unsigned char *data = dv.buf;
    const int64_t *offsets = ov.buf;
    PyObject *out = NULL, *out_offsets = NULL, *result = NULL;
    if (offsets[0] < 0 || offsets[n] > dv.len || offsets[n] < offsets[0]) {
        PyErr_SetString(PyExc_ValueError, "offsets outside the data");
        goto done;
    }
    Py_ssize_t total = (Py_ssize_t)(offsets[n] - offsets[0]);
    Py_ssize_t bound = packing ? 2 * total : (MAX_CODE + 3) * total;  /* an escape doubles a byte; a card: "T21", */
    out = PyBytes_FromStringAndSize(NULL, bound);
    out_offsets = PyBytes_FromStringAndSize(NULL, (n + 1) * 8);
    if (out == NULL || out_offsets == NULL) goto done;
    unsigned char *o = (unsigned char *)PyBytes_AS_STRING(out);
    int64_t *oo = (int64_t *)PyBytes_AS_STRING(out_offsets);
    Py_ssize_t j = 0;
    oo[0] = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t p = offsets[i], end = offsets[i + 1];
        if (end < p) {
            PyErr_SetString(PyExc_ValueError, "offsets not ascending");
            goto done;
        }
        if (packing) {
            Py_ssize_t prev_end = -1;  /* where the last packed code ended */
            while (p < end) {
                Py_ssize_t run = p;  /* the bytes up to the next quote or card-range byte, copied at once */
                while (run < end && !special[data[run]]) run++;
                memcpy(o + j, data + p, (size_t)(run - p));
                j += run - p;
                p = run;
                if (p == end) break;
                unsigned char b = data[p];
                int len, card = b == '"' && p != prev_end ? code_at(data, p, end, &len) : -1;
                if (card >= 0) {
                    o[j++] = (unsigned char)(card_byte + card);
                    p += len;
                    prev_end = p;
                    int next_len;
                    /* the comma between two codes */
                    if (p < end && data[p] == ',' && code_at(data, p + 1, end, &next_len) >= 0) p++;
                } else {
                    if (b >= card_byte && b <= last_card_byte) o[j++] = escape_byte;
                    o[j++] = b;
                    p++;
                }
            }
        } else {
            while (p < end) {
                unsigned char b = data[p];
                if (b == escape_byte && p + 1 < end) {
                    o[j++] = data[p + 1];
                    p += 2;
                } else if (b >= card_byte && b <= last_card_byte) {
                    int c = b - card_byte;
                    o[j++] = '"';
                    memcpy(o + j, code_text[c], (size_t)code_len[c]);
                    j += code_len[c];
                    o[j++] = '"';
                    p++;
                    if (p < end && data[p] >= card_byte && data[p] <= last_card_byte) o[j++] = ',';
                } else {
                    o[j++] = b;
                    p++;
                }
            }
        }
        oo[i + 1] = j;
    }
    if (_PyBytes_Resize(&out, j) < 0) goto done;
    result = PyTuple_Pack(2, out, out_offsets);
done:
    Py_XDECREF(out);
    Py_XDECREF(out_offsets);
    PyBuffer_Release(&dv);
    PyBuffer_Release(&ov);
    return result;
}

static PyObject *pack(PyObject *self, PyObject *args) { return run(args, 1); }
static PyObject *unpack(PyObject *self, PyObject *args) { return run(args, 0); }

/* init(codes, card_byte, escape_byte): the card codes in card order (ASCII, 1 to 3 characters). */
static PyObject *init(PyObject *self, PyObject *args) {
    PyObject *codes;
    int first, escape;
    if (!PyArg_ParseTuple(args, "Oii", &codes, &first, &escape)) return NULL;
    Py_ssize_t count = PySequence_Size(codes);
    if (count < 1 || count > MAX_CARDS || first < 0x80 || first + count - 1 > 0xFF || escape < 0 || escape > 0xFF) {
        PyErr_SetString(PyExc_ValueError, "init: 1 to 64 codes, card bytes from 0x80");
        return NULL;
    }
    for (Py_ssize_t c = 0; c < count; c++) {
        PyObject *code = PySequence_GetItem(codes, c);
        if (code == NULL) return NULL;
        Py_ssize_t len;
        const char *text = PyUnicode_AsUTF8AndSize(code, &len);
        Py_DECREF(code);
        if (text == NULL) return NULL;
        if (len < 1 || len > MAX_CODE) {
            PyErr_SetString(PyExc_ValueError, "init: a code of 1 to 3 bytes");
            return NULL;
        }
        memcpy(code_text[c], text, (size_t)len);
        code_len[c] = (int)len;
    }
    memset(card_of1, 0xFF, sizeof card_of1);  /* every entry -1 */
    memset(card_of2, 0xFF, sizeof card_of2);
    n_long = 0;
    memset(special, 0, sizeof special);
    special['"'] = 1;
    for (int b = first; b < first + count; b++) special[b] = 1;
    for (int c = 0; c < (int)count; c++) {
        if (code_len[c] == 1) card_of1[code_text[c][0]] = (int16_t)c;
        else if (code_len[c] == 2) card_of2[code_text[c][0]][code_text[c][1]] = (int16_t)c;
        else long_cards[n_long++] = c;
    }
    n_cards = (int)count;
    card_byte = (unsigned char)first;
    last_card_byte = (unsigned char)(first + count - 1);
    escape_byte = (unsigned char)escape;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"init", init, METH_VARARGS, "init(codes, card_byte, escape_byte): the card codes, in card order."},
    {"pack", pack, METH_VARARGS, "pack(data, offsets) -> (bytes, offsets): ingest.packed_record.pack_text per value."},
    {"unpack", unpack, METH_VARARGS,
     "unpack(data, offsets) -> (bytes, offsets): ingest.packed_record.unpack_bytes per value."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_packrecord", "The record_packed codec's byte loops.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__packrecord(void) { return PyModule_Create(&module); }
