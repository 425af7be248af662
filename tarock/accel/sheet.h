/*
 * A recorded score sheet against what was recomputed, for the C fast paths that write a clean deal's result
 * themselves: ingest's bulk rows (ingest/_bulkrows.c) and check's JSON lines (tarock/accel/_checkline.c).
 * A sheet that says anything else has findings (tarock.check.audit.audit_scores), which only the usual path
 * writes, so both decline such a deal; this is where they ask.
 */
#ifndef TAROCK_ACCEL_SHEET_H
#define TAROCK_ACCEL_SHEET_H

#include <Python.h>

/* Whether a sheet's {player: number} (a player missing counts 0) says ``values`` (a tuple by seat of
 * ``players``): 1, 0, or -1 on an error. */
static inline int sheet_says(PyObject *sheet, PyObject *players, PyObject *values) {
    if (!PyTuple_Check(values) || PyTuple_GET_SIZE(values) != PyTuple_GET_SIZE(players)) return 0;
    for (Py_ssize_t s = 0; s < PyTuple_GET_SIZE(players); s++) {
        PyObject *got = PyDict_GetItemWithError(sheet, PyTuple_GET_ITEM(players, s));
        if (!got) {
            if (PyErr_Occurred()) return -1;
            long value = PyLong_AsLong(PyTuple_GET_ITEM(values, s));
            if (value == -1 && PyErr_Occurred()) return -1;
            if (value != 0) return 0;
            continue;
        }
        int same = PyObject_RichCompareBool(got, PyTuple_GET_ITEM(values, s), Py_EQ);
        if (same <= 0) return same;
    }
    return 1;
}

#endif
