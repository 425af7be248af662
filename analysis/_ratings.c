/*
 * The ratings' common deal in C: winners against losers, OpenSkill's Plackett-Luce update in its two-team closed
 * form, over a run of deals.  analysis.ratings.compute uses it when built.
 *
 * This is an accelerator, not a second model: analysis/ratings.py's ``_two_sides`` is the reference, and this
 * function does the same double operations in the same order (built with -ffp-contract=off: no fused
 * multiply-add), so the ratings come out bit for bit the same (tests/analysis/test_rating_update.py compares
 * them).  It holds no constant of the model: τ², β² and κ come from the caller (analysis/rating_update.py).
 *
 * ``rate_two(kinds, ends, keys, won, mu, sigma, out_mu, out_sigma, first, tau2, beta2, kappa)``: from deal
 * ``first`` on, a deal of kind ``two`` is rated, one of kind ``skip`` passed over, and at a deal of any other
 * kind the function stops and returns its number (the caller rates it and calls again from the next); it
 * returns the number of deals when all are done.  ``kinds`` (int8) and ``ends`` (int64, the end row of each
 * deal) are per deal; ``keys`` (int64: a player's place in ``mu`` and ``sigma``) and ``won`` (int8) per row;
 * ``mu``, ``sigma`` (the players' state) and ``out_mu``, ``out_sigma`` (per row: the rating after the deal)
 * are float64, written in place.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>

#define SKIP 0
#define TWO 1
#define MAX_ROWS 8 /* players of one deal: a table has 3 or 4 */

static int view(PyObject *obj, Py_buffer *buf, Py_ssize_t itemsize, int writable, const char *name) {
    if (PyObject_GetBuffer(obj, buf, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0) return -1;
    if (buf->itemsize != itemsize || buf->len % itemsize) {
        PyErr_Format(PyExc_TypeError, "%s: expected items of %zd bytes", name, itemsize);
        PyBuffer_Release(buf);
        return -1;
    }
    return 0;
}

static PyObject *py_rate_two(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 12) {
        PyErr_SetString(PyExc_TypeError, "rate_two takes 12 arguments");
        return NULL;
    }
    static const char *names[8] = {"kinds", "ends", "keys", "won", "mu", "sigma", "out_mu", "out_sigma"};
    static const Py_ssize_t sizes[8] = {1, 8, 8, 1, 8, 8, 8, 8};
    Py_buffer b[8];
    int got = 0;
    PyObject *result = NULL;
    for (; got < 8; got++)
        if (view(args[got], &b[got], sizes[got], got >= 4, names[got]) < 0) goto done;
    Py_ssize_t first = PyLong_AsSsize_t(args[8]);
    double tau2 = PyFloat_AsDouble(args[9]), beta2 = PyFloat_AsDouble(args[10]), kappa = PyFloat_AsDouble(args[11]);
    if (PyErr_Occurred()) goto done;
    const int8_t *kinds = b[0].buf, *won = b[3].buf;
    const int64_t *ends = b[1].buf, *keys = b[2].buf;
    double *mu = b[4].buf, *sigma = b[5].buf, *out_mu = b[6].buf, *out_sigma = b[7].buf;
    Py_ssize_t n_deals = b[0].len, n_rows = b[2].len / 8, n_players = b[4].len / 8;
    if (b[1].len / 8 != n_deals || b[3].len != n_rows || b[5].len / 8 != n_players || b[6].len / 8 != n_rows
        || b[7].len / 8 != n_rows || first < 0) {
        PyErr_SetString(PyExc_ValueError, "rate_two: the arrays' lengths do not match");
        goto done;
    }
    Py_ssize_t d = first;
    for (; d < n_deals; d++) {
        if (kinds[d] == SKIP) continue;
        if (kinds[d] != TWO) break;
        int64_t s = d ? ends[d - 1] : 0, e = ends[d];
        if (s < 0 || e > n_rows || e - s > MAX_ROWS || e < s) {
            PyErr_SetString(PyExc_ValueError, "rate_two: a deal's rows are out of range");
            goto done;
        }
        double v[MAX_ROWS];
        double tw = 0.0, tl = 0.0, mw = 0.0, ml = 0.0;
        for (int64_t r = s; r < e; r++) {
            int64_t k = keys[r];
            if (k < 0 || k >= n_players) {
                PyErr_SetString(PyExc_ValueError, "rate_two: a player's key is out of range");
                goto done;
            }
            double x = sigma[k] * sigma[k] + tau2;
            v[r - s] = x;
            if (won[r]) {
                tw += x;
                mw += mu[k];
            } else {
                tl += x;
                ml += mu[k];
            }
        }
        double c = sqrt(tw + tl + 2.0 * beta2);
        double p = 1.0 / (1.0 + exp((ml - mw) / c));
        double q = 1.0 - p;
        double step = q / c, shrink = p * q / (c * c * c);
        double dw = shrink * sqrt(tw), dl = shrink * sqrt(tl);
        for (int64_t r = s; r < e; r++) {
            int64_t k = keys[r];
            double x = v[r - s];
            double left = 1 - x * (won[r] ? dw : dl);
            mu[k] = won[r] ? mu[k] + x * step : mu[k] - x * step;
            sigma[k] = sqrt(x) * sqrt(kappa > left ? kappa : left);
            out_mu[r] = mu[k];
            out_sigma[r] = sigma[k];
        }
    }
    result = PyLong_FromSsize_t(d);
done:
    for (int i = 0; i < got; i++) PyBuffer_Release(&b[i]);
    return result;
}

static PyMethodDef methods[] = {
    {"rate_two", (PyCFunction)(void (*)(void))py_rate_two, METH_FASTCALL,
     "Rate the two-team deals from ``first`` on; the number of the first deal of another kind (or of deals)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_ratings", "The ratings' two-team update over a run of deals, in C.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__ratings(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "SKIP", SKIP) < 0 || PyModule_AddIntConstant(m, "TWO", TWO) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
