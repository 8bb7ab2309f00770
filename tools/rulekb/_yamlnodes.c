/* The fast path of the load stage (rulekb.load): libyaml's parser turned straight into the
 * positioned nodes of rulekb.load (Scalar, MapNode, SeqNode), without PyYAML's Python event
 * objects. It reads only the YAML the project writes: one document of mappings, lists and
 * scalars. Anything else -- an anchor, an alias, a tag, a duplicate key, a non-text key,
 * several documents, no document, nesting deeper than the limit, a syntax error -- makes
 * parse() return None ("not simple"), and rulekb.load reads that file again with its
 * positioned loader, which names the problem at its line and column. Optional: when this
 * module is not built, rulekb.load uses the positioned loader for every file. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <yaml.h>

typedef struct {
    yaml_parser_t parser;
    PyTypeObject *scalar_type, *map_type, *seq_type;
    PyObject *s_items, *s_line, *s_column;
    long max_depth;
    int simple;   /* 0 once the file is found not simple */
} Reader;

static int next_event(Reader *r, yaml_event_t *event) {
    if (!yaml_parser_parse(&r->parser, event)) { r->simple = 0; return 0; }
    return 1;
}

static PyObject *make_scalar(Reader *r, yaml_event_t *event) {
    PyObject *value = PyUnicode_DecodeUTF8((const char *)event->data.scalar.value,
                                           (Py_ssize_t)event->data.scalar.length, "strict");
    if (value == NULL) return NULL;
    PyObject *node = r->scalar_type->tp_alloc(r->scalar_type, 4);
    if (node == NULL) { Py_DECREF(value); return NULL; }
    PyTuple_SET_ITEM(node, 0, value);
    PyTuple_SET_ITEM(node, 1, PyLong_FromSize_t(event->start_mark.line + 1));
    PyTuple_SET_ITEM(node, 2, PyLong_FromSize_t(event->start_mark.column + 1));
    PyObject *quoted = event->data.scalar.style == YAML_PLAIN_SCALAR_STYLE ? Py_False : Py_True;
    Py_INCREF(quoted);
    PyTuple_SET_ITEM(node, 3, quoted);
    if (PyTuple_GET_ITEM(node, 1) == NULL || PyTuple_GET_ITEM(node, 2) == NULL) { Py_DECREF(node); return NULL; }
    return node;
}

/* A MapNode or SeqNode (frozen dataclasses with __slots__): made without their __init__, fields
 * set as object.__setattr__ would (through the slots' descriptors, no per-node dict). */
static PyObject *make_collection(Reader *r, PyTypeObject *type, PyObject *items, yaml_mark_t mark) {
    PyObject *node = type->tp_alloc(type, 0);
    if (node == NULL) return NULL;
    PyObject *line = PyLong_FromSize_t(mark.line + 1), *column = PyLong_FromSize_t(mark.column + 1);
    int failed = line == NULL || column == NULL
        || PyObject_GenericSetAttr(node, r->s_items, items) < 0
        || PyObject_GenericSetAttr(node, r->s_line, line) < 0
        || PyObject_GenericSetAttr(node, r->s_column, column) < 0;
    Py_XDECREF(line);
    Py_XDECREF(column);
    if (failed) { Py_DECREF(node); return NULL; }
    return node;
}

/* The node that `event` starts (the event is deleted here). NULL with no Python error set:
 * not simple; NULL with an error set: the error. */
static PyObject *read_node(Reader *r, yaml_event_t *event, long depth);

static int plain_node(Reader *r, yaml_event_t *event) {
    switch (event->type) {
    case YAML_SCALAR_EVENT:
        return event->data.scalar.anchor == NULL && event->data.scalar.tag == NULL;
    case YAML_SEQUENCE_START_EVENT:
        return event->data.sequence_start.anchor == NULL && event->data.sequence_start.tag == NULL;
    case YAML_MAPPING_START_EVENT:
        return event->data.mapping_start.anchor == NULL && event->data.mapping_start.tag == NULL;
    default:   /* an alias, or an event no node starts with */
        return 0;
    }
}

static PyObject *read_sequence(Reader *r, yaml_mark_t mark, long depth) {
    PyObject *items = PyList_New(0);
    if (items == NULL) return NULL;
    yaml_event_t event;
    for (;;) {
        if (!next_event(r, &event)) goto fail;
        if (event.type == YAML_SEQUENCE_END_EVENT) { yaml_event_delete(&event); break; }
        PyObject *child = read_node(r, &event, depth + 1);
        if (child == NULL) goto fail;
        int added = PyList_Append(items, child);
        Py_DECREF(child);
        if (added < 0) goto fail;
    }
    PyObject *tuple = PyList_AsTuple(items);
    Py_DECREF(items);
    if (tuple == NULL) return NULL;
    PyObject *node = make_collection(r, r->seq_type, tuple, mark);
    Py_DECREF(tuple);
    return node;
fail:
    Py_DECREF(items);
    return NULL;
}

static PyObject *read_mapping(Reader *r, yaml_mark_t mark, long depth) {
    PyObject *items = PyList_New(0), *seen = PySet_New(NULL);
    if (items == NULL || seen == NULL) goto fail;
    yaml_event_t event;
    for (;;) {
        if (!next_event(r, &event)) goto fail;
        if (event.type == YAML_MAPPING_END_EVENT) { yaml_event_delete(&event); break; }
        if (event.type != YAML_SCALAR_EVENT) { yaml_event_delete(&event); r->simple = 0; goto fail; }
        PyObject *key = read_node(r, &event, depth + 1);
        if (key == NULL) goto fail;
        PyObject *text = PyTuple_GET_ITEM(key, 0);
        int dup = PySet_Contains(seen, text);
        if (dup != 0 || PySet_Add(seen, text) < 0) { Py_DECREF(key); if (dup > 0) r->simple = 0; goto fail; }
        if (!next_event(r, &event)) { Py_DECREF(key); goto fail; }
        PyObject *value = read_node(r, &event, depth + 1);
        if (value == NULL) { Py_DECREF(key); goto fail; }
        PyObject *pair = PyTuple_Pack(2, key, value);
        Py_DECREF(key);
        Py_DECREF(value);
        if (pair == NULL) goto fail;
        int added = PyList_Append(items, pair);
        Py_DECREF(pair);
        if (added < 0) goto fail;
    }
    Py_DECREF(seen);
    PyObject *tuple = PyList_AsTuple(items);
    Py_DECREF(items);
    if (tuple == NULL) return NULL;
    PyObject *node = make_collection(r, r->map_type, tuple, mark);
    Py_DECREF(tuple);
    return node;
fail:
    Py_XDECREF(items);
    Py_XDECREF(seen);
    return NULL;
}

static PyObject *read_node(Reader *r, yaml_event_t *event, long depth) {
    PyObject *node = NULL;
    yaml_mark_t mark = event->start_mark;
    yaml_event_type_t type = event->type;
    if (!plain_node(r, event)) {
        r->simple = 0;
    } else if (type == YAML_SCALAR_EVENT) {
        node = make_scalar(r, event);
    } else if (depth > r->max_depth) {
        r->simple = 0;
    } else {
        yaml_event_delete(event);
        return type == YAML_SEQUENCE_START_EVENT ? read_sequence(r, mark, depth) : read_mapping(r, mark, depth);
    }
    yaml_event_delete(event);
    return node;
}

/* The root node of one document, or NULL (not simple, or an error set). */
static PyObject *read_stream(Reader *r) {
    yaml_event_t event;
    PyObject *root = NULL;
    if (!next_event(r, &event)) return NULL;
    int stream_start = event.type == YAML_STREAM_START_EVENT;
    yaml_event_delete(&event);
    if (!stream_start || !next_event(r, &event)) { r->simple = 0; return NULL; }
    if (event.type != YAML_DOCUMENT_START_EVENT) { yaml_event_delete(&event); r->simple = 0; return NULL; }
    yaml_event_delete(&event);
    if (!next_event(r, &event)) return NULL;
    root = read_node(r, &event, 1);
    if (root == NULL) return NULL;
    if (!next_event(r, &event)) goto not_simple;
    int document_end = event.type == YAML_DOCUMENT_END_EVENT;
    yaml_event_delete(&event);
    if (!document_end || !next_event(r, &event)) goto not_simple;
    int stream_end = event.type == YAML_STREAM_END_EVENT;   /* not another document */
    yaml_event_delete(&event);
    if (!stream_end) goto not_simple;
    return root;
not_simple:
    r->simple = 0;
    Py_DECREF(root);
    return NULL;
}

static PyObject *parse(PyObject *self, PyObject *args) {
    Py_buffer data;
    Reader r;
    memset(&r, 0, sizeof r);
    if (!PyArg_ParseTuple(args, "y*O!O!O!l", &data, &PyType_Type, &r.scalar_type, &PyType_Type, &r.map_type,
                          &PyType_Type, &r.seq_type, &r.max_depth))
        return NULL;
    if (!PyType_IsSubtype(r.scalar_type, &PyTuple_Type)) {
        PyBuffer_Release(&data);
        PyErr_SetString(PyExc_TypeError, "the scalar type must be a tuple type");
        return NULL;
    }
    r.s_items = PyUnicode_InternFromString("items");
    r.s_line = PyUnicode_InternFromString("line");
    r.s_column = PyUnicode_InternFromString("column");
    if (r.s_items == NULL || r.s_line == NULL || r.s_column == NULL || !yaml_parser_initialize(&r.parser)) {
        Py_XDECREF(r.s_items); Py_XDECREF(r.s_line); Py_XDECREF(r.s_column);
        PyBuffer_Release(&data);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    yaml_parser_set_input_string(&r.parser, (const unsigned char *)data.buf, (size_t)data.len);
    yaml_parser_set_encoding(&r.parser, YAML_UTF8_ENCODING);
    r.simple = 1;
    PyObject *root = read_stream(&r);
    yaml_parser_delete(&r.parser);
    PyBuffer_Release(&data);
    Py_DECREF(r.s_items); Py_DECREF(r.s_line); Py_DECREF(r.s_column);
    if (root == NULL) {
        if (PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) return NULL;
            PyErr_Clear();   /* not UTF-8: the positioned loader says where */
        }
        Py_RETURN_NONE;
    }
    return root;
}

static PyMethodDef methods[] = {
    {"parse", parse, METH_VARARGS,
     "parse(data, Scalar, MapNode, SeqNode, max_depth): the root node of the UTF-8 YAML `data`, or None "
     "when the file is not simple (anchors, aliases, tags, duplicate keys, several documents, too deep, "
     "a syntax error): the positioned loader then reads it and names the problem."},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "rulekb._yamlnodes", NULL, 0, methods};

PyMODINIT_FUNC PyInit__yamlnodes(void) { return PyModule_Create(&module); }
