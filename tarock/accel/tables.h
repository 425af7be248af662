/* Reading the rulebook's tables by name from a Python mapping (``vars(tarock.cards)``, a players' table …),
 * shared by the extensions that load them at import: the kernel (_fastplay.c) and the simulator's compiled
 * players (tarock/sim/_simplay.c). */
#ifndef TAROCK_TABLES_H
#define TAROCK_TABLES_H

#include <Python.h>

/* ``tables[name]`` as a fast sequence of exactly ``size`` items (a new reference), or NULL with an exception:
 * the name missing, not a sequence, or of another length. */
static inline PyObject *sized_table(PyObject *tables, const char *name, Py_ssize_t size) {
    PyObject *v = PyMapping_GetItemString(tables, name);
    if (!v) return NULL;
    PyObject *seq = PySequence_Fast(v, name);
    Py_DECREF(v);
    if (seq && PySequence_Fast_GET_SIZE(seq) != size) {
        PyErr_Format(PyExc_ValueError, "init: %s has %zd entries, not %zd", name, PySequence_Fast_GET_SIZE(seq), size);
        Py_DECREF(seq);
        return NULL;
    }
    return seq;
}

#endif
