/*
 * The ratings' deal-by-deal update in C: analysis/rating_update.py's model (Plackett-Luce on side means, zero-sum)
 * over every deal of a run, in order.
 * analysis.ratings.compute uses it when built.
 *
 * This is an accelerator, not a second model: analysis/ratings.py's ``_rate_deals`` (with
 * analysis/rating_update.py's ``rate`` and ratings' ``_teams``) is the reference, and this function does the same
 * double operations in the same order (built with -ffp-contract=off: no fused multiply-add), so the ratings come
 * out bit for bit the same (tests/analysis/test_rating_update.py compares them).  It holds no constant of the
 * model: τ², β² and κ come from the caller (analysis/rating_update.py), and the kinds of deal are exported by
 * name (``SKIP``, ``TWO``, ``SIDES``, ``PLACES``) and checked by the caller.
 *
 * ``rate_deals(kinds, ends, keys, won, opponent, score, mu, sigma, out_mu, out_sigma, tau2, beta2, kappa)``:
 * ``kinds`` (int8) and ``ends`` (int64, the end row of each deal) are per deal; ``keys`` (int64: a player's place
 * in ``mu`` and ``sigma``), ``won`` and ``opponent`` (int8) and ``score`` (int64) per row; ``mu``, ``sigma`` (the
 * players' states) and ``out_mu``, ``out_sigma`` (per row: the rating after the deal) are float64, written in
 * place.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>

#define KIND_LIST(X) X(SKIP) X(TWO) X(SIDES) X(PLACES)
#define KIND_ID(name) name,
enum { KIND_LIST(KIND_ID) N_KINDS };
#define MAX_ROWS 8 /* players of one deal: a table has 3 or 4 */
#define N_BUFFERS 10

/* The two-team closed form (winners against losers): ratings._rate_deals' ``TWO`` branch. */
static void rate_two(int64_t s, int64_t e, const int64_t *keys, const int8_t *won, double *mu, double *sigma,
                     double *out_mu, double *out_sigma, double tau2, double beta2, double kappa) {
    double v[MAX_ROWS], step[MAX_ROWS];
    double tw = 0.0, tl = 0.0, mw = 0.0, ml = 0.0, nw = 0.0, nl = 0.0;
    for (int64_t r = s; r < e; r++) {
        int64_t k = keys[r];
        double x = sigma[k] * sigma[k] + tau2;
        v[r - s] = x;
        if (won[r]) {
            tw += x;
            mw += mu[k];
            nw += 1.0;
        } else {
            tl += x;
            ml += mu[k];
            nl += 1.0;
        }
    }
    double c = sqrt(tw / (nw * nw) + tl / (nl * nl) + 2.0 * beta2);
    double p = 1.0 / (1.0 + exp((ml / nl - mw / nw) / c));
    double q = 1.0 - p;
    double gw = q / (nw * c), gl = -q / (nl * c);
    double hw = p * q * sqrt(tw / (nw * nw)) / (nw * nw * c * c * c);
    double hl = p * q * sqrt(tl / (nl * nl)) / (nl * nl * c * c * c);
    double net = 0.0;
    for (int64_t r = s; r < e; r++) {
        step[r - s] = v[r - s] * (won[r] ? gw : gl);
        net += step[r - s];
    }
    double shift = net / (tw + tl);
    for (int64_t r = s; r < e; r++) {
        int64_t k = keys[r];
        double x = v[r - s];
        double left = 1 - x * (won[r] ? hw : hl);
        mu[k] = mu[k] + (step[r - s] - x * shift);
        sigma[k] = sqrt(x) * sqrt(kappa > left ? kappa : left);
        out_mu[r] = mu[k];
        out_sigma[r] = sigma[k];
    }
}

/* Several sides: ratings._teams (a row's side and its side's place), then rating_update.rate. */
static void rate_teams(int kind, int64_t s, int64_t e, const int64_t *keys, const int8_t *won, const int8_t *opponent,
                       const int64_t *score, double *mu, double *sigma, double *out_mu, double *out_sigma,
                       double tau2, double beta2, double kappa) {
    int n = (int)(e - s), k = 0;
    int team_of[MAX_ROWS], rank[MAX_ROWS], side_team[4] = {-1, -1, -1, -1};
    for (int i = 0; i < n; i++) {
        if (kind == PLACES) { /* each player alone, placed 1 + the players scoring more */
            team_of[i] = k;
            rank[k] = 1;
            for (int j = 0; j < n; j++) rank[k] += score[s + j] > score[s + i];
            k++;
        } else { /* the sides (opponents or not) split by result, in the order they first sit */
            int side = (opponent[s + i] ? 2 : 0) + (won[s + i] ? 1 : 0);
            if (side_team[side] < 0) {
                side_team[side] = k;
                rank[k] = won[s + i] ? 1 : 2;
                k++;
            }
            team_of[i] = side_team[side];
        }
    }
    double s2[MAX_ROWS], before[MAX_ROWS], step[MAX_ROWS], team_mu[MAX_ROWS], team_s2[MAX_ROWS], size[MAX_ROWS];
    double ex[MAX_ROWS], sum_q[MAX_ROWS];
    int a[MAX_ROWS];
    for (int t = 0; t < k; t++) team_mu[t] = team_s2[t] = size[t] = 0.0;
    for (int i = 0; i < n; i++) {
        double sg = sigma[keys[s + i]];
        s2[i] = sg * sg + tau2;
        before[i] = mu[keys[s + i]];
        size[team_of[i]] += 1.0;
    }
    for (int t = 0; t < k; t++) { /* a side's players in seat order, as the reference sums them */
        for (int i = 0; i < n; i++)
            if (team_of[i] == t) {
                team_mu[t] += before[i];
                team_s2[t] += s2[i];
            }
        team_mu[t] /= size[t];
        team_s2[t] /= size[t] * size[t];
    }
    double total = 0.0;
    for (int t = 0; t < k; t++) total += team_s2[t];
    double c = sqrt(total + k * beta2);
    for (int t = 0; t < k; t++) ex[t] = exp(team_mu[t] / c);
    for (int q = 0; q < k; q++) {
        sum_q[q] = 0.0;
        a[q] = 0;
        for (int t = 0; t < k; t++) {
            if (rank[t] >= rank[q]) sum_q[q] += ex[t];
            a[q] += rank[t] == rank[q];
        }
    }
    double net = 0.0, weight = 0.0;
    for (int t = 0; t < k; t++) {
        double g = 0.0, h = 0.0;
        for (int q = 0; q < k; q++) {
            if (rank[q] <= rank[t]) {
                double p = ex[t] / sum_q[q];
                h += p * (1 - p) / a[q];
                g += ((q == t) ? (1 - p) : -p) / a[q];
            }
        }
        double m = size[t];
        g /= m * c;
        h *= sqrt(team_s2[t]) / (m * m * c * c * c);
        for (int i = 0; i < n; i++) {
            if (team_of[i] != t) continue;
            int64_t key = keys[s + i];
            double left = 1 - s2[i] * h;
            step[i] = s2[i] * g;
            net += step[i];
            weight += s2[i];
            sigma[key] = sqrt(s2[i]) * sqrt(kappa > left ? kappa : left);
            out_sigma[s + i] = sigma[key];
        }
    }
    double shift = net / weight;
    for (int t = 0; t < k; t++)
        for (int i = 0; i < n; i++) {
            if (team_of[i] != t) continue;
            int64_t key = keys[s + i];
            mu[key] = before[i] + (step[i] - s2[i] * shift);
            out_mu[s + i] = mu[key];
        }
}

static int view(PyObject *obj, Py_buffer *buf, Py_ssize_t itemsize, int writable, const char *name) {
    if (PyObject_GetBuffer(obj, buf, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0) return -1;
    if (buf->itemsize != itemsize || buf->len % itemsize) {
        PyErr_Format(PyExc_TypeError, "%s: expected items of %zd bytes", name, itemsize);
        PyBuffer_Release(buf);
        return -1;
    }
    return 0;
}

static PyObject *py_rate_deals(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != N_BUFFERS + 3) {
        PyErr_SetString(PyExc_TypeError, "rate_deals takes 13 arguments");
        return NULL;
    }
    static const char *names[N_BUFFERS] = {"kinds", "ends", "keys", "won", "opponent", "score", "mu", "sigma",
                                           "out_mu", "out_sigma"};
    static const Py_ssize_t sizes[N_BUFFERS] = {1, 8, 8, 1, 1, 8, 8, 8, 8, 8};
    Py_buffer b[N_BUFFERS];
    int got = 0;
    PyObject *result = NULL;
    for (; got < N_BUFFERS; got++)
        if (view(args[got], &b[got], sizes[got], got >= 6, names[got]) < 0) goto done;
    double tau2 = PyFloat_AsDouble(args[10]), beta2 = PyFloat_AsDouble(args[11]), kappa = PyFloat_AsDouble(args[12]);
    if (PyErr_Occurred()) goto done;
    const int8_t *kinds = b[0].buf, *won = b[3].buf, *opponent = b[4].buf;
    const int64_t *ends = b[1].buf, *keys = b[2].buf, *score = b[5].buf;
    double *mu = b[6].buf, *sigma = b[7].buf, *out_mu = b[8].buf, *out_sigma = b[9].buf;
    Py_ssize_t n_deals = b[0].len, n_rows = b[2].len / 8, n_players = b[6].len / 8;
    if (b[1].len / 8 != n_deals || b[3].len != n_rows || b[4].len != n_rows || b[5].len / 8 != n_rows
        || b[7].len / 8 != n_players || b[8].len / 8 != n_rows || b[9].len / 8 != n_rows) {
        PyErr_SetString(PyExc_ValueError, "rate_deals: the arrays' lengths do not match");
        goto done;
    }
    for (Py_ssize_t r = 0; r < n_rows; r++)
        if (keys[r] < 0 || keys[r] >= n_players) {
            PyErr_SetString(PyExc_ValueError, "rate_deals: a player's key is out of range");
            goto done;
        }
    int64_t s = 0;
    for (Py_ssize_t d = 0; d < n_deals; d++) {
        int64_t e = ends[d];
        if (e < s || e > n_rows || e - s > MAX_ROWS || kinds[d] < 0 || kinds[d] >= N_KINDS) {
            PyErr_SetString(PyExc_ValueError, "rate_deals: a deal's rows or kind are out of range");
            goto done;
        }
        if (kinds[d] == TWO)
            rate_two(s, e, keys, won, mu, sigma, out_mu, out_sigma, tau2, beta2, kappa);
        else if (kinds[d] != SKIP)
            rate_teams(kinds[d], s, e, keys, won, opponent, score, mu, sigma, out_mu, out_sigma, tau2, beta2, kappa);
        s = e;
    }
    result = Py_NewRef(Py_None);
done:
    for (int i = 0; i < got; i++) PyBuffer_Release(&b[i]);
    return result;
}

static PyMethodDef methods[] = {
    {"rate_deals", (PyCFunction)(void (*)(void))py_rate_deals, METH_FASTCALL,
     "Rate every deal in order (analysis.ratings._rate_deals), writing the states and each row's rating."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_ratings", "The ratings' deal-by-deal update, in C.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__ratings(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
#define KIND_CONSTANT(name) || PyModule_AddIntConstant(m, #name, name) < 0
    if (0 KIND_LIST(KIND_CONSTANT)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
