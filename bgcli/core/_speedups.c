/* bgcli.core._speedups: the legal-play generator, result Position IDs and a
 * `moves --batch` line in C, for the compiled build (BGCLI_COMPILE=1, see
 * setup.py).
 *
 * The pure Python code in generator.py and batch.py is the reference: every
 * function here mirrors one there, loop for loop, so that the plays come out
 * in the same order with the same raw pairs (the first found of each result),
 * which the play texts and the order of legal_plays depend on. Python's
 * generator keeps a side as one integer (byte p = the count on point p, hit
 * marks from bit 208 + p); here a board is 26 bytes and a 32-bit set of hit
 * marks, and the Python integer is made only for what is handed back.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BAR 25
#define SLOTS 26
#define MAX_COUNT 15   /* checkers of a side: every count is 0..15 */
#define KEY_BYTES 30   /* a key as a Python int: 26 board bytes, then the hit marks */
#define ID_LENGTH 14

/* --- boards and keys -------------------------------------------------------- */

/* A play's result: the mover's counts and a bit per point where it hit.
 * The pad is always zero, so two keys are equal when their bytes are. */
typedef struct {
    uint8_t b[SLOTS];
    uint8_t pad[2];
    uint32_t hits;
} Key;

typedef struct {
    Key key;
    uint8_t moves[8];   /* start, end, start, end, ... */
    uint8_t n;          /* numbers in moves: 2, 4, 6 or 8 */
} Entry;

/* The plays found so far, in the order found (a Python dict's insertion
 * order), with a hash index to find a key again. */
typedef struct {
    Entry *items;
    Py_ssize_t len, cap;
    Py_ssize_t *slots;   /* item number + 1; 0 is an empty slot */
    size_t mask;
} Found;

static void found_free(Found *f)
{
    free(f->items);
    free(f->slots);
    f->items = NULL;
    f->slots = NULL;
    f->len = f->cap = 0;
    f->mask = 0;
}

static inline uint64_t key_hash(const Key *k)
{
    uint64_t w[4];
    memcpy(w, k, sizeof w);
    uint64_t h = w[0] * 0x9E3779B97F4A7C15ULL;
    h = (h ^ (h >> 31) ^ w[1]) * 0xBF58476D1CE4E5B9ULL;
    h = (h ^ (h >> 29) ^ w[2]) * 0x94D049BB133111EBULL;
    h = (h ^ (h >> 32) ^ w[3]) * 0x9E3779B97F4A7C15ULL;
    return h ^ (h >> 29);
}

static int found_grow(Found *f)
{
    Py_ssize_t cap = f->cap ? 2 * f->cap : 32;
    Entry *items = realloc(f->items, (size_t)cap * sizeof(Entry));
    if (items == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    f->items = items;
    f->cap = cap;
    size_t size = (size_t)cap * 2;   /* at most half full */
    Py_ssize_t *slots = calloc(size, sizeof(Py_ssize_t));
    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    free(f->slots);
    f->slots = slots;
    f->mask = size - 1;
    for (Py_ssize_t i = 0; i < f->len; i++) {
        size_t at = (size_t)key_hash(&f->items[i].key) & f->mask;
        while (slots[at])
            at = (at + 1) & f->mask;
        slots[at] = i + 1;
    }
    return 0;
}

/* found[key] = moves (replace) or found.setdefault(key, moves) (not replace):
 * a key found again keeps its place either way. 0, or -1 with MemoryError. */
static int found_put(Found *f, const Key *key, const uint8_t *moves, int n, int replace)
{
    if (f->len == f->cap && found_grow(f) < 0)
        return -1;
    size_t at = (size_t)key_hash(key) & f->mask;
    Py_ssize_t slot;
    while ((slot = f->slots[at]) != 0) {
        Entry *old = &f->items[slot - 1];
        if (memcmp(&old->key, key, sizeof(Key)) == 0) {
            if (replace) {
                memcpy(old->moves, moves, (size_t)n);
                old->n = (uint8_t)n;
            }
            return 0;
        }
        at = (at + 1) & f->mask;
    }
    Entry *e = &f->items[f->len];
    e->key = *key;
    memcpy(e->moves, moves, (size_t)n);
    e->n = (uint8_t)n;
    f->slots[at] = ++f->len;
    return 0;
}

/* Found b into a (a is empty), leaving b empty. */
static void found_take(Found *a, Found *b)
{
    found_free(a);
    *a = *b;
    memset(b, 0, sizeof *b);
}

/* The highest byte of a board that is not 0 (Python's (bit_length() - 1) >> 3), -1 for none. */
static inline int highest(const uint8_t *b)
{
    for (int p = SLOTS - 1; p >= 0; p--)
        if (b[p])
            return p;
    return -1;
}

/* The mover's side and the opponent's checkers on the mover's points. */
typedef struct {
    uint8_t player[SLOTS];
    uint8_t opp[SLOTS];   /* opp[p]: the opponent's checkers on the mover's point p (its 25 - p) */
} Query;

static inline void step(Key *k, int s, int e)
{
    k->b[s]--;
    k->b[e]++;
}

static inline uint32_t hit_mark(const Query *q, int e)
{
    return (e && q->opp[e] == 1) ? (uint32_t)1 << e : 0;
}

/* _steps: every legal single step of die from starts <= limit, as (start, end) pairs; their number. */
static int steps(const uint8_t *b, int die, const Query *q, int limit, uint8_t *out)
{
    int n = 0;
    if (b[BAR]) {
        int end = BAR - die;
        if (q->opp[end] < 2) {
            out[0] = BAR;
            out[1] = (uint8_t)end;
            n = 1;
        }
        return n;
    }
    int high = highest(b);
    int top = high < limit ? high : limit;
    if (high > 6) {
        for (int s = top; s > die; s--)
            if (b[s] && q->opp[s - die] < 2) {
                out[2 * n] = (uint8_t)s;
                out[2 * n + 1] = (uint8_t)(s - die);
                n++;
            }
        return n;
    }
    for (int s = top; s > 0; s--) {
        if (!b[s])
            continue;
        int end = s - die;
        if (end > 0) {
            if (q->opp[end] < 2) {
                out[2 * n] = (uint8_t)s;
                out[2 * n + 1] = (uint8_t)end;
                n++;
            }
        }
        else if (end == 0 || s == high) {
            out[2 * n] = (uint8_t)s;
            out[2 * n + 1] = 0;
            n++;
        }
    }
    return n;
}

/* One row of _step_table / _double_plays' moves: a point a checker may leave. */
typedef struct {
    uint8_t s, e;
    uint8_t clear;      /* points clear..25 must be empty first (26: no condition) */
    uint32_t hit;
} Move;

static inline int may_move(const Key *k, const Move *m)
{
    if (!k->b[m->s])
        return 0;
    for (int p = m->clear; p < SLOTS; p++)
        if (k->b[p])
            return 0;
    return 1;
}

static inline void do_move(Key *k, const Move *m)
{
    step(k, m->s, m->e);
    k->hits |= m->hit;
}

static inline void set_move(Move *m, const Query *q, int s, int die)
{
    int e = s - die;
    m->s = (uint8_t)s;
    if (e > 0) {
        m->e = (uint8_t)e;
        m->clear = SLOTS;
        m->hit = q->opp[e] == 1 ? (uint32_t)1 << e : 0;
    }
    else {
        /* a bear-off: every checker home, and with a larger die none above */
        m->e = 0;
        m->clear = (uint8_t)(e == 0 ? 7 : s + 1);
        m->hit = 0;
    }
}

/* _step_table: the rows of die for a play of two steps; their number. */
static int step_table(const Query *q, int die, int other, int top, Move *table)
{
    int n = 0;
    for (int s = top; s > 0; s--) {
        if (q->player[s] || (s + other < 25 && q->player[s + other])) {
            int e = s - die;
            if (e > 0 && q->opp[e] >= 2)
                continue;
            set_move(&table[n++], q, s, die);
        }
    }
    return n;
}

static int mixed_general(const Key *board, const Query *q, int high, int low, Found *found)
{
    Found singles[2];
    memset(singles, 0, sizeof singles);
    int dice[2][2] = {{high, low}, {low, high}};
    int status = -1;
    for (int order = 0; order < 2; order++) {
        int d1 = dice[order][0], d2 = dice[order][1];
        uint8_t firsts[2 * SLOTS], seconds[2 * SLOTS];
        int n1 = steps(board->b, d1, q, 25, firsts);
        for (int i = 0; i < n1; i++) {
            int s1 = firsts[2 * i], e1 = firsts[2 * i + 1];
            Key b1 = *board;
            step(&b1, s1, e1);
            b1.hits = hit_mark(q, e1);
            int n2 = steps(b1.b, d2, q, 25, seconds);
            for (int j = 0; j < n2; j++) {
                int s2 = seconds[2 * j], e2 = seconds[2 * j + 1];
                Key key = b1;
                step(&key, s2, e2);
                key.hits |= hit_mark(q, e2);
                uint8_t moves[4] = {(uint8_t)s1, (uint8_t)e1, (uint8_t)s2, (uint8_t)e2};
                if (found_put(found, &key, moves, 4, 0) < 0)
                    goto done;
            }
            if (!n2 && !found->len) {
                uint8_t moves[2] = {(uint8_t)s1, (uint8_t)e1};
                if (found_put(&singles[order], &b1, moves, 2, 0) < 0)
                    goto done;
            }
        }
    }
    if (!found->len)
        found_take(found, singles[0].len ? &singles[0] : &singles[1]);
    status = 0;
done:
    found_free(&singles[0]);
    found_free(&singles[1]);
    return status;
}

static int mixed_bearing(const Key *board, const Query *q, int high, int low, Found *found)
{
    int top = highest(board->b);
    Move highs[SLOTS], lows[SLOTS];
    int nh = step_table(q, high, low, top, highs);
    int nl = step_table(q, low, high, top, lows);
    for (int order = 0; order < 2; order++) {
        const Move *firsts = order ? lows : highs, *seconds = order ? highs : lows;
        int n1 = order ? nl : nh, n2 = order ? nh : nl;
        for (int i = 0; i < n1; i++) {
            if (!may_move(board, &firsts[i]))
                continue;
            Key k1 = *board;
            do_move(&k1, &firsts[i]);
            for (int j = 0; j < n2; j++) {
                if (!may_move(&k1, &seconds[j]))
                    continue;
                Key key = k1;
                do_move(&key, &seconds[j]);
                uint8_t moves[4] = {firsts[i].s, firsts[i].e, seconds[j].s, seconds[j].e};
                if (found_put(found, &key, moves, 4, 0) < 0)
                    return -1;
            }
        }
    }
    if (found->len)
        return 0;
    for (int order = 0; order < 2 && !found->len; order++) {   /* one die only: the larger if it can */
        const Move *table = order ? lows : highs;
        int n = order ? nl : nh;
        for (int i = 0; i < n; i++) {
            if (!may_move(board, &table[i]))
                continue;
            Key key = *board;
            do_move(&key, &table[i]);
            uint8_t moves[2] = {table[i].s, table[i].e};
            if (found_put(found, &key, moves, 2, 1) < 0)
                return -1;
        }
    }
    return 0;
}

static int mixed_plays(const Key *board, const Query *q, int high, int low, Found *found)
{
    const uint8_t *player = q->player;
    if (player[BAR])
        return mixed_general(board, q, high, low, found);
    int outside = 0;
    for (int p = 7; p < 25; p++)
        outside += player[p];
    if (outside < 2)
        return mixed_bearing(board, q, high, low, found);
    /* nothing on the bar, two or more checkers outside home: no bear-off */
    int firsts[24], seconds[24], n1 = 0, n2 = 0;
    for (int p = 24; p > 0; p--) {
        if (!player[p])
            continue;
        if (p > high && q->opp[p - high] < 2)
            firsts[n1++] = p;
        if (p > low && q->opp[p - low] < 2)
            seconds[n2++] = p;
    }
    for (int i = 0; i < n1; i++) {
        int s1 = firsts[i], e1 = s1 - high;
        Key k1 = *board;
        step(&k1, s1, e1);
        k1.hits = hit_mark(q, e1);
        int alone = player[s1] == 1;
        for (int j = 0; j < n2; j++) {
            int s2 = seconds[j];
            if (s2 == s1 && alone)
                continue;
            int e2 = s2 - low;
            Key key = k1;
            step(&key, s2, e2);
            key.hits |= hit_mark(q, e2);
            uint8_t moves[4] = {(uint8_t)s1, (uint8_t)e1, (uint8_t)s2, (uint8_t)e2};
            if (found_put(found, &key, moves, 4, 0) < 0)
                return -1;
        }
        /* the same checker goes on (when e1 held a checker, a second one did above) */
        if (!player[e1] && e1 > low && q->opp[e1 - low] < 2) {
            int e2 = e1 - low;
            Key key = k1;
            step(&key, e1, e2);
            key.hits |= hit_mark(q, e2);
            uint8_t moves[4] = {(uint8_t)s1, (uint8_t)e1, (uint8_t)e1, (uint8_t)e2};
            if (found_put(found, &key, moves, 4, 0) < 0)
                return -1;
        }
    }
    for (int j = 0; j < n2; j++) {   /* one checker, the low die first */
        int s1 = seconds[j], e1 = s1 - low;
        if (e1 > high && !player[e1] && q->opp[e1 - high] < 2) {
            int e2 = e1 - high;
            Key key = *board;
            step(&key, s1, e2);
            key.hits = hit_mark(q, e1) | hit_mark(q, e2);
            uint8_t moves[4] = {(uint8_t)s1, (uint8_t)e1, (uint8_t)e1, (uint8_t)e2};
            if (found_put(found, &key, moves, 4, 0) < 0)
                return -1;
        }
    }
    if (found->len)
        return 0;
    /* only one die can be played: the larger one if it can */
    for (int order = 0; order < 2 && !found->len; order++) {
        int die = order ? low : high, n = order ? n2 : n1;
        const int *starts = order ? seconds : firsts;
        for (int i = 0; i < n; i++) {
            int s1 = starts[i], e1 = s1 - die;
            Key key = *board;
            step(&key, s1, e1);
            key.hits = hit_mark(q, e1);
            uint8_t moves[2] = {(uint8_t)s1, (uint8_t)e1};
            if (found_put(found, &key, moves, 2, 1) < 0)
                return -1;
        }
    }
    return 0;
}

/* _double_general's walk: by_count[n] holds the plays of n steps; best is the most steps seen. */
typedef struct {
    const Query *q;
    int die;
    int best;
    Found by_count[5];
} Walk;

static int walk(Walk *w, const Key *b, int top, uint8_t *moves, int n, int left)
{
    int stepped = 0;
    if (left) {
        uint8_t found[2 * SLOTS];
        int count = steps(b->b, w->die, w->q, top, found);
        for (int i = 0; i < count; i++) {
            int s = found[2 * i], e = found[2 * i + 1];
            stepped = 1;
            Key next = *b;
            step(&next, s, e);
            next.hits |= hit_mark(w->q, e);
            moves[2 * n] = (uint8_t)s;
            moves[2 * n + 1] = (uint8_t)e;
            if (walk(w, &next, s, moves, n + 1, left - 1) < 0)
                return -1;
        }
    }
    if (!stepped && n >= w->best) {
        w->best = n;
        if (found_put(&w->by_count[n], b, moves, 2 * n, 0) < 0)
            return -1;
    }
    return 0;
}

static int double_general(const Key *start, const Query *q, int die, Found *found)
{
    Key board = *start;
    uint8_t moves[8];
    int entered = 0;
    int bar = board.b[BAR];
    if (bar) {
        int end = BAR - die;
        if (q->opp[end] >= 2)
            return 0;
        entered = bar < 4 ? bar : 4;
        board.b[BAR] = (uint8_t)(bar - entered);
        board.b[end] = (uint8_t)(board.b[end] + entered);
        for (int i = 0; i < entered; i++) {
            moves[2 * i] = BAR;
            moves[2 * i + 1] = (uint8_t)end;
        }
        board.hits |= hit_mark(q, end);
        if (entered == 4 || bar > 4)
            return found_put(found, &board, moves, 2 * entered, 0);
    }
    Walk w;
    memset(&w, 0, sizeof w);
    w.q = q;
    w.die = die;
    w.best = entered;
    int status = walk(&w, &board, 25, moves, entered, 4 - entered);
    if (status == 0 && w.best)
        found_take(found, &w.by_count[w.best]);
    for (int i = 0; i < 5; i++)
        found_free(&w.by_count[i]);
    return status;
}

static int double_plays(const Key *board, const Query *q, int die, Found *found)
{
    const uint8_t *player = q->player;
    if (player[BAR])
        return double_general(board, q, die, found);
    /* a play is the multiset of its four starts, taken in non-increasing order (see generator.py) */
    int outside = 0;
    for (int p = 7; p < 25; p++)
        outside += player[p];
    int bearing = outside < 4;
    Move moves[SLOTS];
    int n = 0;
    int top = highest(board->b);
    for (int s = top; s > (bearing ? 0 : die); s--) {
        int any = 0;
        for (int k = 0; k < 4; k++)
            if (s + k * die < SLOTS && player[s + k * die])
                any = 1;
        if (!any)
            continue;
        int e = s - die;
        if (e > 0 && q->opp[e] >= 2)
            continue;
        set_move(&moves[n++], q, s, die);
    }
    for (int i1 = 0; i1 < n; i1++) {
        if (!may_move(board, &moves[i1]))
            continue;
        Key k1 = *board;
        do_move(&k1, &moves[i1]);
        for (int i2 = i1; i2 < n; i2++) {
            if (!may_move(&k1, &moves[i2]))
                continue;
            Key k2 = k1;
            do_move(&k2, &moves[i2]);
            for (int i3 = i2; i3 < n; i3++) {
                if (!may_move(&k2, &moves[i3]))
                    continue;
                Key k3 = k2;
                do_move(&k3, &moves[i3]);
                for (int i4 = i3; i4 < n; i4++) {
                    if (!may_move(&k3, &moves[i4]))
                        continue;
                    Key key = k3;
                    do_move(&key, &moves[i4]);
                    uint8_t raw[8] = {moves[i1].s, moves[i1].e, moves[i2].s, moves[i2].e,
                                      moves[i3].s, moves[i3].e, moves[i4].s, moves[i4].e};
                    if (found_put(found, &key, raw, 8, 1) < 0)
                        return -1;
                }
            }
        }
    }
    if (found->len)
        return 0;
    return double_general(board, q, die, found);   /* fewer than four steps */
}

/* legal_keys after the dice are checked: the plays into found. 0, or -1 with an exception. */
static int generate(const Query *q, int high, int low, Found *found)
{
    Key board;
    memset(&board, 0, sizeof board);
    memcpy(board.b, q->player, SLOTS);
    if (high == low)
        return double_plays(&board, q, high, found);
    return mixed_plays(&board, q, high, low, found);
}

/* --- Python values in and out --------------------------------------------------- */

/* One side's 26 counts from bytes or a tuple or list of ints, each 0..15. 0, or -1 with an exception. */
static int read_side(PyObject *side, uint8_t *out, const char *name)
{
    if (PyBytes_Check(side)) {
        if (PyBytes_GET_SIZE(side) != SLOTS) {
            PyErr_Format(PyExc_ValueError, "%s: expected 26 counts, got %zd", name, PyBytes_GET_SIZE(side));
            return -1;
        }
        memcpy(out, PyBytes_AS_STRING(side), SLOTS);
    }
    else if (PyTuple_Check(side) || PyList_Check(side)) {
        if (PySequence_Fast_GET_SIZE(side) != SLOTS) {
            PyErr_Format(PyExc_ValueError, "%s: expected 26 counts, got %zd", name, PySequence_Fast_GET_SIZE(side));
            return -1;
        }
        for (int p = 0; p < SLOTS; p++) {
            /* ints only: PyLong_AsLong of anything else could run Python code that changes a list */
            PyObject *item = PySequence_Fast_GET_ITEM(side, p);
            if (!PyLong_Check(item)) {
                PyErr_Format(PyExc_TypeError, "%s: expected int counts, not %.100s", name, Py_TYPE(item)->tp_name);
                return -1;
            }
            long count = PyLong_AsLong(item);
            if (count == -1 && PyErr_Occurred())
                return -1;
            if (count < 0 || count > MAX_COUNT) {
                PyErr_Format(PyExc_ValueError, "%s: count %ld on point %d, expected 0 to 15", name, count, p);
                return -1;
            }
            out[p] = (uint8_t)count;
        }
        return 0;
    }
    else {
        PyErr_Format(PyExc_TypeError, "%s: expected bytes or a tuple or list of 26 counts, not %.100s", name,
                     Py_TYPE(side)->tp_name);
        return -1;
    }
    for (int p = 0; p < SLOTS; p++)
        if (out[p] > MAX_COUNT) {
            PyErr_Format(PyExc_ValueError, "%s: count %d on point %d, expected 0 to 15", name, out[p], p);
            return -1;
        }
    return 0;
}

/* A side seen from the other player: slot p is slot 25 - p (the opponent's
 * own counts <-> Query.opp, its checkers on the mover's points). */
static void reversed_side(const uint8_t *from, uint8_t *to)
{
    for (int p = 0; p < SLOTS; p++)
        to[p] = from[SLOTS - 1 - p];
}

static int read_query(PyObject *player, PyObject *opponent, Query *q)
{
    uint8_t theirs[SLOTS];
    if (read_side(player, q->player, "player") < 0 || read_side(opponent, theirs, "opponent") < 0)
        return -1;
    reversed_side(theirs, q->opp);
    return 0;
}

static int read_die(PyObject *value, int *die)
{
    long d = PyLong_Check(value) ? PyLong_AsLong(value) : -1;
    if (d == -1 && PyErr_Occurred())
        return -1;
    if (!PyLong_Check(value) || PyBool_Check(value) || d < 1 || d > 6) {
        PyErr_SetString(PyExc_ValueError, "expected dice from 1 to 6");
        return -1;
    }
    *die = (int)d;
    return 0;
}

static PyObject *key_int(const Key *k)
{
    unsigned char raw[KEY_BYTES];
    memcpy(raw, k->b, SLOTS);
    for (int i = 0; i < 4; i++)
        raw[SLOTS + i] = (unsigned char)(k->hits >> (8 * i));
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(raw, KEY_BYTES, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray(raw, KEY_BYTES, 1, 0);
#endif
}

/* A key from a Python int of the generator's (a board and hit marks). 0, or -1 with an exception. */
static int int_key(PyObject *value, Key *k)
{
    unsigned char raw[KEY_BYTES];
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "expected an int key, not %.100s", Py_TYPE(value)->tp_name);
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t needed = PyLong_AsNativeBytes(value, raw, KEY_BYTES,
                                             Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                                             Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (needed < 0)
        return -1;
    if (needed > KEY_BYTES) {
        PyErr_SetString(PyExc_OverflowError, "key too large for a play");
        return -1;
    }
#else
    if (_PyLong_AsByteArray((PyLongObject *)value, raw, KEY_BYTES, 1, 0) < 0)
        return -1;
#endif
    memset(k, 0, sizeof *k);
    memcpy(k->b, raw, SLOTS);
    for (int i = 0; i < 4; i++)
        k->hits |= (uint32_t)raw[SLOTS + i] << (8 * i);
    return 0;
}

static PyObject *moves_tuple(const Entry *e)
{
    PyObject *moves = PyTuple_New(e->n);
    if (moves == NULL)
        return NULL;
    for (int i = 0; i < e->n; i++) {
        PyObject *number = PyLong_FromLong(e->moves[i]);
        if (number == NULL) {
            Py_DECREF(moves);
            return NULL;
        }
        PyTuple_SET_ITEM(moves, i, number);
    }
    return moves;
}

static PyObject *found_dict(const Found *found)
{
    PyObject *out = PyDict_New();
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < found->len; i++) {
        PyObject *key = key_int(&found->items[i].key);
        PyObject *moves = key ? moves_tuple(&found->items[i]) : NULL;
        int failed = moves == NULL || PyDict_SetItem(out, key, moves) < 0;
        Py_XDECREF(key);
        Py_XDECREF(moves);
        if (failed) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

/* --- Position IDs ----------------------------------------------------------------- */

/* gnubg's Position ID bits: per slot one 1 bit per checker, then a 0; at most 96 bits (12 bytes). */
typedef struct {
    uint64_t w[2];
    int length;
} Bits;

static inline int put_slots(Bits *bits, const uint8_t *side)
{
#ifdef __SIZEOF_INT128__
    unsigned __int128 v = (unsigned __int128)bits->w[1] << 64 | bits->w[0];
    int at = bits->length;
    for (int p = 1; p < SLOTS; p++) {
        unsigned c = side[p];
        if (c > MAX_COUNT || at + (int)c + 1 > 96)
            return -1;
        v |= (unsigned __int128)(((uint64_t)1 << c) - 1) << at;
        at += (int)c + 1;
    }
    bits->w[0] = (uint64_t)v;
    bits->w[1] = (uint64_t)(v >> 64);
    bits->length = at;
#else
    for (int p = 1; p < SLOTS; p++) {
        unsigned c = side[p];
        if (c > MAX_COUNT || bits->length + (int)c + 1 > 96)
            return -1;
        uint64_t ones = ((uint64_t)1 << c) - 1;
        int at = bits->length;
        if (at < 64) {
            bits->w[0] |= ones << at;
            if (at + (int)c > 64)
                bits->w[1] |= ones >> (64 - at);
        }
        else
            bits->w[1] |= ones << (at - 64);
        bits->length = at + (int)c + 1;
    }
#endif
    return 0;
}

static const char BASE64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* The 14 characters of an ID's bits. */
static void bits_text(const Bits *bits, char *out)
{
    uint8_t raw[12];
    for (int i = 0; i < 8; i++)
        raw[i] = (uint8_t)(bits->w[0] >> (8 * i));
    for (int i = 0; i < 4; i++)
        raw[8 + i] = (uint8_t)(bits->w[1] >> (8 * i));
    char text[16];
    for (int g = 0; g < 4; g++) {
        uint32_t v = (uint32_t)raw[3 * g] << 16 | (uint32_t)raw[3 * g + 1] << 8 | raw[3 * g + 2];
        text[4 * g] = BASE64[v >> 18];
        text[4 * g + 1] = BASE64[(v >> 12) & 63];
        text[4 * g + 2] = BASE64[(v >> 6) & 63];
        text[4 * g + 3] = BASE64[v & 63];
    }
    memcpy(out, text, ID_LENGTH);
}

/* bits followed by more; -1 when they do not fit in 96 bits. */
static inline int append_bits(Bits *bits, const Bits *more)
{
    int at = bits->length;
    if (at + more->length > 96)
        return -1;
    if (at == 0) {
        bits->w[0] = more->w[0];
        bits->w[1] = more->w[1];
    }
    else if (at < 64) {
        bits->w[0] |= more->w[0] << at;
        bits->w[1] |= more->w[0] >> (64 - at) | more->w[1] << at;
    }
    else
        bits->w[1] |= more->w[0] << (at - 64);   /* more has at most 32 bits here */
    bits->length = at + more->length;
    return 0;
}

/* The 14 characters of the ID of first's slots, then second's; -1 (no exception) when they do not fit. */
static int write_id(const uint8_t *first, const uint8_t *second, char *out)
{
    Bits bits = {{0, 0}, 0};
    if (put_slots(&bits, first) < 0 || put_slots(&bits, second) < 0)
        return -1;
    bits_text(&bits, out);
    return 0;
}

/* The ID of a play's result (the mover's side as the key has it, then the
 * opponent's with the hit blots on its bar), as Play.result_id writes it. */
static int result_id(const Key *k, const uint8_t *opponent, const Bits *unhit, char *out)
{
    uint8_t theirs[SLOTS];
    const uint8_t *side = opponent;
    if (!k->hits) {   /* the opponent's half as it is, encoded once per query */
        Bits bits = {{0, 0}, 0};
        if (put_slots(&bits, k->b) < 0 || append_bits(&bits, unhit) < 0) {
            PyErr_SetString(PyExc_ValueError, "a key holds more checkers than a Position ID can");
            return -1;
        }
        bits_text(&bits, out);
        return 0;
    }
    {
        if (k->hits & ~(uint32_t)0x1FFFFFE) {
            PyErr_SetString(PyExc_ValueError, "a key marks a hit off the points 1 to 24");
            return -1;
        }
        memcpy(theirs, opponent, SLOTS);
        for (int p = 1; p < 25; p++)
            if (k->hits >> p & 1) {
                if (!theirs[25 - p]) {
                    PyErr_Format(PyExc_ValueError, "a key marks a hit on point %d, where the opponent has no checker", p);
                    return -1;
                }
                theirs[25 - p]--;
                theirs[BAR]++;
            }
        side = theirs;
    }
    if (write_id(k->b, side, out) < 0) {
        PyErr_SetString(PyExc_ValueError, "a key holds more checkers than a Position ID can");
        return -1;
    }
    return 0;
}

/* The opponent's half (its own counts, theirs) of every result ID of a
 * query that hits no blot: encoded once per query. */
static int unhit_bits(const uint8_t *theirs, Bits *unhit)
{
    *unhit = (Bits){{0, 0}, 0};
    if (put_slots(unhit, theirs) < 0) {
        PyErr_SetString(PyExc_ValueError, "a position with more checkers than a Position ID can hold");
        return -1;
    }
    return 0;
}

static int own_id(const Query *q, char *out)
{
    uint8_t theirs[SLOTS];
    reversed_side(q->opp, theirs);
    if (write_id(theirs, q->player, out) < 0) {
        PyErr_SetString(PyExc_ValueError, "a position with more checkers than a Position ID can hold");
        return -1;
    }
    return 0;
}

/* A key's place in sorted(found), as two words: the hit marks, then the
 * counts from the bar down to point 1, four bits each (a count is 0..15;
 * the borne-off count is left out, as the others and the 15 checkers give it). */
typedef struct {
    uint64_t high, low;
    Py_ssize_t index;
} SortKey;

static inline SortKey sort_key(const Key *k, Py_ssize_t index)
{
    SortKey out = {(uint64_t)k->hits, 0, index};
    for (int p = 25; p > 16; p--)
        out.high = out.high << 4 | k->b[p];
    for (int p = 16; p > 0; p--)
        out.low = out.low << 4 | k->b[p];
    return out;
}

static inline int sort_before(const SortKey *x, const SortKey *y)
{
    return x->high < y->high || (x->high == y->high && x->low < y->low);
}

static int sort_key_order(const void *a, const void *b)
{
    const SortKey *x = a, *y = b;
    return sort_before(x, y) ? -1 : sort_before(y, x) ? 1 : 0;
}

/* found's plays in the order of their keys (they are distinct): an insertion
 * sort of their sort keys for the few plays of most rolls, qsort beyond. */
static int sort_entries(Found *found)
{
    Py_ssize_t n = found->len;
    SortKey *keys = malloc((size_t)n * sizeof(SortKey));
    Entry *sorted = malloc((size_t)n * sizeof(Entry));
    if (keys == NULL || sorted == NULL) {
        free(keys);
        free(sorted);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        keys[i] = sort_key(&found->items[i].key, i);
    if (n > 48)
        qsort(keys, (size_t)n, sizeof(SortKey), sort_key_order);
    else
        for (Py_ssize_t i = 1; i < n; i++) {
            SortKey key = keys[i];
            Py_ssize_t j = i;
            for (; j > 0 && sort_before(&key, &keys[j - 1]); j--)
                keys[j] = keys[j - 1];
            keys[j] = key;
        }
    for (Py_ssize_t i = 0; i < n; i++)
        sorted[i] = found->items[keys[i].index];
    free(keys);
    free(found->items);
    found->items = sorted;
    found->cap = n;
    return 0;
}

static int is_ready_str(PyObject *text, const char *what)
{
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a str, not %.100s", what, Py_TYPE(text)->tp_name);
        return 0;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0)
        return 0;
#endif
    return 1;
}

/* parse_position_id's sides of a Position ID: (player, opponent) as tuples of
 * 26 counts, or None for any text that is not plainly a valid ID (14 base64
 * digits, 50 slots, 15 checkers a side at most, no point held by both), for
 * the Python code to read again and word the error. */
static int base64_value(Py_UCS4 c)
{
    if (c >= 'A' && c <= 'Z')
        return (int)(c - 'A');
    if (c >= 'a' && c <= 'z')
        return (int)(c - 'a') + 26;
    if (c >= '0' && c <= '9')
        return (int)(c - '0') + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

static PyObject *side_tuple(const uint8_t *side)
{
    PyObject *out = PyTuple_New(SLOTS);
    if (out == NULL)
        return NULL;
    for (int p = 0; p < SLOTS; p++) {
        PyObject *count = PyLong_FromLong(side[p]);
        if (count == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, p, count);
    }
    return out;
}

/* The sides of the 14 characters of a Position ID: 1, or 0 when they are not a valid one. */
static int read_id(const Py_UCS1 *chars, uint8_t *player, uint8_t *opponent)
{
    uint8_t raw[11] = {0};
    uint32_t acc = 0;
    int bits = 0, at = 0;
    for (int i = 0; i < ID_LENGTH; i++) {
        int v = base64_value(chars[i]);
        if (v < 0)
            return 0;
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            raw[at++] = (uint8_t)(acc >> bits);
            acc &= ((uint32_t)1 << bits) - 1;
        }
    }
    /* 84 bits: 10 bytes, the last 4 bits dropped as binascii does */
    uint8_t counts[50];
    int slot = 0, run = 0;
    for (int bit = 0; bit < 80; bit++) {
        int one = raw[bit >> 3] >> (bit & 7) & 1;
        if (slot == 50) {
            if (one)
                return 0;   /* bits left after the 50 slots */
            continue;
        }
        if (one)
            run++;
        else {
            if (run > MAX_COUNT)
                return 0;
            counts[slot++] = (uint8_t)run;
            run = 0;
        }
    }
    if (slot < 50)
        return 0;
    int theirs = 0, mine = 0;
    for (int p = 1; p < SLOTS; p++) {
        opponent[p] = counts[p - 1];
        player[p] = counts[24 + p];
        theirs += opponent[p];
        mine += player[p];
    }
    if (theirs > MAX_COUNT || mine > MAX_COUNT)
        return 0;
    for (int p = 1; p < 25; p++)
        if (player[p] && opponent[25 - p])
            return 0;
    player[0] = (uint8_t)(MAX_COUNT - mine);
    opponent[0] = (uint8_t)(MAX_COUNT - theirs);
    return 1;
}

static PyObject *sides_tuple(const uint8_t *player, const uint8_t *opponent)
{
    PyObject *first = side_tuple(player);
    PyObject *second = first ? side_tuple(opponent) : NULL;
    PyObject *out = second ? PyTuple_Pack(2, first, second) : NULL;
    Py_XDECREF(first);
    Py_XDECREF(second);
    return out;
}

static PyObject *py_parse_id(PyObject *module, PyObject *text)
{
    (void)module;
    if (!is_ready_str(text, "text"))
        return NULL;
    if (PyUnicode_GET_LENGTH(text) != ID_LENGTH || PyUnicode_KIND(text) != PyUnicode_1BYTE_KIND)
        Py_RETURN_NONE;
    uint8_t player[SLOTS], opponent[SLOTS];
    if (!read_id(PyUnicode_1BYTE_DATA(text), player, opponent))
        Py_RETURN_NONE;
    return sides_tuple(player, opponent);
}

/* --- the module's functions ------------------------------------------------------ */

typedef struct {
    PyObject *player;     /* "player", "opponent": a Position's attributes */
    PyObject *opponent;
} State;

static PyObject *py_legal_keys(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "legal_keys(player, opponent, high, low) takes 4 arguments");
        return NULL;
    }
    Query q;
    int high, low;
    if (read_query(args[0], args[1], &q) < 0 || read_die(args[2], &high) < 0 || read_die(args[3], &low) < 0)
        return NULL;
    if (high < low) {
        int larger = low;
        low = high;
        high = larger;
    }
    Found found;
    memset(&found, 0, sizeof found);
    PyObject *out = generate(&q, high, low, &found) < 0 ? NULL : found_dict(&found);
    found_free(&found);
    return out;
}

/* -1 with generator.refuse_sides' ValueError when the 25 slots from ``slots`` (a side's points and bar)
 * hold more than 15 checkers: no backgammon position, and an ID would not hold it or would name another. */
static int more_than_15(const uint8_t *slots, const char *name)
{
    int n = 0;
    for (int p = 0; p < 25; p++)
        n += slots[p];
    if (n <= MAX_COUNT)
        return 0;
    PyErr_Format(PyExc_ValueError, "%s has %d checkers, more than 15", name, n);
    return -1;
}

static PyObject *py_query_ids(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "query_ids(player, opponent, keys, own) takes 4 arguments");
        return NULL;
    }
    Query q;
    PyObject *own = args[3];
    if (read_query(args[0], args[1], &q) < 0 || more_than_15(q.player + 1, "player on roll") < 0
        || more_than_15(q.opp, "opponent") < 0)
        return NULL;
    if (own != Py_None && !PyUnicode_Check(own)) {
        PyErr_SetString(PyExc_TypeError, "own: expected a str or None");
        return NULL;
    }
    uint8_t theirs[SLOTS];
    reversed_side(q.opp, theirs);
    Bits unhit;
    if (unhit_bits(theirs, &unhit) < 0)
        return NULL;
    PyObject *keys = PySequence_Tuple(args[2]);   /* a tuple: nothing run below can change it */
    if (keys == NULL)
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(keys);
    PyObject *ids = PyList_New(n);
    PyObject *result = NULL;
    if (ids == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        Key k;
        char text[ID_LENGTH];
        if (int_key(PyTuple_GET_ITEM(keys, i), &k) < 0 || result_id(&k, theirs, &unhit, text) < 0)
            goto done;
        PyObject *id = PyUnicode_FromStringAndSize(text, ID_LENGTH);
        if (id == NULL)
            goto done;
        PyList_SET_ITEM(ids, i, id);
    }
    if (own == Py_None) {
        char text[ID_LENGTH];
        if (own_id(&q, text) < 0)
            goto done;
        own = PyUnicode_FromStringAndSize(text, ID_LENGTH);
        if (own == NULL)
            goto done;
    }
    else
        Py_INCREF(own);
    result = PyTuple_Pack(2, own, ids);
    Py_DECREF(own);
done:
    Py_DECREF(keys);
    Py_XDECREF(ids);
    return result;
}

/* The writer of one line: its text is ASCII pieces of ours and str pieces
 * (play fragments, the position's ID), copied into one str. */
typedef struct {
    PyObject *out;
    int kind;
    void *data;
    Py_ssize_t at;
} Writer;

static void write_ascii(Writer *w, const char *text, Py_ssize_t n)
{
    if (w->kind == PyUnicode_1BYTE_KIND)
        memcpy((char *)w->data + w->at, text, (size_t)n);
    else
        for (Py_ssize_t i = 0; i < n; i++)
            PyUnicode_WRITE(w->kind, w->data, w->at + i, (Py_UCS4)(unsigned char)text[i]);
    w->at += n;
}

/* The ASCII text of many lines, one after another (query_lines' answers): each
 * line written straight into it, not into a str of its own then joined. */
typedef struct {
    char *data;
    Py_ssize_t len, cap;
} Sink;

static int sink_reserve(Sink *sink, Py_ssize_t more)
{
    if (sink->len + more <= sink->cap)
        return 0;
    Py_ssize_t cap = sink->cap ? sink->cap : 1 << 16;
    while (cap < sink->len + more)
        cap *= 2;
    char *data = realloc(sink->data, (size_t)cap);
    if (data == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    sink->data = data;
    sink->cap = cap;
    return 0;
}

/* The sink's text as a str appended to pieces, the sink emptied. 0, or -1 with an exception. */
static int sink_flush(Sink *sink, PyObject *pieces)
{
    if (sink->len == 0)
        return 0;
    PyObject *text = PyUnicode_New(sink->len, 127);
    if (text == NULL)
        return -1;
    memcpy(PyUnicode_1BYTE_DATA(text), sink->data, (size_t)sink->len);
    sink->len = 0;
    int failed = PyList_Append(pieces, text);
    Py_DECREF(text);
    return failed;
}

static int write_str(Writer *w, PyObject *text, Py_ssize_t from)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(text) - from;
    if (n <= 0)
        return 0;
    if (w->kind == PyUnicode_1BYTE_KIND && PyUnicode_KIND(text) == PyUnicode_1BYTE_KIND)
        memcpy((char *)w->data + w->at, PyUnicode_1BYTE_DATA(text) + from, (size_t)n);
    else if (PyUnicode_CopyCharacters(w->out, w->at, text, from, n) < 0)
        return -1;
    w->at += n;
    return 0;
}


/* --- Texts: the play texts a writer keeps ------------------------------------------- */

/* A MovesWriter's play fragments (its JSON of a play's text), found by a code
 * of what the text is made of: the raw pairs and, for each step, whether its
 * end is a hit point (the same as the raw pairs and the hit marks, which are
 * all landing points). At most `limit` are kept: then they are all dropped
 * and kept again from nothing, as the Python writer does. */
typedef struct {
    uint64_t code;       /* 0: an empty slot (a code is never 0: it holds the count of steps) */
    PyObject *text;
} TextSlot;

typedef struct {
    PyObject_HEAD
    TextSlot *slots;     /* a code and its text side by side: one cache line per look-up */
    size_t mask;         /* slots - 1; 0 before the first text */
    Py_ssize_t len, limit;
    /* the writer's point names (off, 1..24, the bar) when its style is written by
     * canonical_text in names play_text takes (ASCII): a missing text is then
     * written here, not asked of the fragment function */
    int has_names;
    char names[26][16];
    Py_ssize_t name_lengths[26];
} Texts;

static uint64_t text_code(const Entry *e)
{
    int steps = e->n / 2;
    uint64_t code = (uint64_t)steps;
    for (int i = 0; i < e->n; i++)
        code |= (uint64_t)e->moves[i] << (3 + 5 * i);
    for (int j = 0; j < steps; j++)
        if (e->key.hits >> e->moves[2 * j + 1] & 1)
            code |= (uint64_t)1 << (43 + j);
    return code;
}

static inline size_t code_slot(uint64_t code, size_t mask)
{
    uint64_t h = code * 0x9E3779B97F4A7C15ULL;
    return (size_t)(h ^ (h >> 32)) & mask;
}

#if defined(__GNUC__)
#define PREFETCH(address) __builtin_prefetch(address)
#else
#define PREFETCH(address) ((void)(address))
#endif

static inline void texts_prefetch(const Texts *t, uint64_t code)
{
    if (t->mask)
        PREFETCH(&t->slots[code_slot(code, t->mask)]);
}

static PyObject *texts_get(Texts *t, uint64_t code)
{
    if (!t->mask)
        return NULL;
    for (size_t at = code_slot(code, t->mask); t->slots[at].code; at = (at + 1) & t->mask)
        if (t->slots[at].code == code)
            return t->slots[at].text;
    return NULL;
}

static void texts_clear(Texts *t)
{
    for (size_t i = 0; t->mask && i <= t->mask; i++) {
        if (t->slots[i].code) {
            t->slots[i].code = 0;
            Py_CLEAR(t->slots[i].text);
        }
    }
    t->len = 0;
}

static int texts_resize(Texts *t, size_t size)
{
    TextSlot *slots = calloc(size, sizeof(TextSlot));
    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; t->mask && i <= t->mask; i++) {
        if (!t->slots[i].code)
            continue;
        size_t at = code_slot(t->slots[i].code, size - 1);
        while (slots[at].code)
            at = (at + 1) & (size - 1);
        slots[at] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots;
    t->mask = size - 1;
    return 0;
}

/* Keep text (a new reference is taken) under code, which is not kept yet. */
static int texts_put(Texts *t, uint64_t code, PyObject *text)
{
    if (t->len >= t->limit)
        texts_clear(t);
    if ((size_t)(t->len + 1) * 2 > t->mask + 1 && texts_resize(t, t->mask ? 2 * (t->mask + 1) : 1024) < 0)
        return -1;
    size_t at = code_slot(code, t->mask);
    while (t->slots[at].code)
        at = (at + 1) & t->mask;
    t->slots[at].code = code;
    t->slots[at].text = Py_NewRef(text);
    t->len++;
    return 0;
}

static PyObject *texts_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    Py_ssize_t limit;
    PyObject *point_names = Py_None;
    static char *names[] = {"limit", "names", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "n|O:Texts", names, &limit, &point_names))
        return NULL;
    if (limit < 1) {
        PyErr_SetString(PyExc_ValueError, "Texts: the limit must be 1 or more");
        return NULL;
    }
    if (point_names != Py_None && (!PyTuple_Check(point_names) || PyTuple_GET_SIZE(point_names) != 26)) {
        PyErr_SetString(PyExc_ValueError, "Texts: names, when given, are a tuple of 26 point names");
        return NULL;
    }
    Texts *t = (Texts *)type->tp_alloc(type, 0);
    if (t == NULL)
        return NULL;
    t->slots = NULL;
    t->mask = 0;
    t->len = 0;
    t->limit = limit;
    /* names play_text does not take (not ASCII, as Korean's): the fragment function writes the texts */
    t->has_names = point_names != Py_None;
    for (int i = 0; t->has_names && i < 26; i++) {
        PyObject *name = PyTuple_GET_ITEM(point_names, i);
        if (!PyUnicode_Check(name) || !PyUnicode_IS_ASCII(name) || PyUnicode_GET_LENGTH(name) > 12) {
            t->has_names = 0;
            break;
        }
        memcpy(t->names[i], PyUnicode_DATA(name), (size_t)PyUnicode_GET_LENGTH(name));
        t->name_lengths[i] = PyUnicode_GET_LENGTH(name);
    }
    return (PyObject *)t;
}

static void texts_dealloc(Texts *t)
{
    texts_clear(t);
    free(t->slots);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static Py_ssize_t texts_length(Texts *t)
{
    return t->len;
}

static PyObject *texts_clear_method(Texts *t, PyObject *unused)
{
    (void)unused;
    texts_clear(t);
    Py_RETURN_NONE;
}

static PyMethodDef texts_methods[] = {
    {"clear", (PyCFunction)texts_clear_method, METH_NOARGS, "Drop every text kept."},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods texts_sequence = {
    .sq_length = (lenfunc)texts_length,
};

static PyTypeObject TextsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bgcli.core._speedups.Texts",
    .tp_basicsize = sizeof(Texts),
    .tp_dealloc = (destructor)texts_dealloc,
    .tp_as_sequence = &texts_sequence,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Texts(limit, names=None): a MovesWriter's play fragments, at most limit of them, for moves_line; "
              "names: the 26 point names of the writer's canonical_text style, for play_text to write the missing ones.",
    .tp_methods = texts_methods,
    .tp_new = texts_new,
};

/* MovesWriter.line: one query's JSON line, the plays in key order, each
 * play's fragment from texts or, when it is not there, fragment(position,
 * key, moves) (then kept). */
static PyObject *build_line(Texts *texts, PyObject *fragment, const Query *query, PyObject *position,
                            PyObject *make_position, int d0, int d1, PyObject *own, Sink *sink);

/* MovesWriter._text of a play for a canonical style, from texts' point names: a new str, or NULL
 * with no exception when play_text does not write it (the fragment function is then asked). */
static PyObject *fragment_of(const Texts *texts, const Entry *e);

static PyObject *py_moves_line(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "moves_line(texts, fragment, position, dice, own) takes 5 arguments");
        return NULL;
    }
    State *state = PyModule_GetState(module);
    PyObject *fragment = args[1], *position = args[2], *dice = args[3], *own = args[4];
    if (!PyObject_TypeCheck(args[0], &TextsType)) {
        PyErr_SetString(PyExc_TypeError, "texts: expected a Texts");
        return NULL;
    }
    Texts *texts = (Texts *)args[0];
    if (!PyTuple_Check(dice) || PyTuple_GET_SIZE(dice) != 2) {
        PyErr_SetString(PyExc_ValueError, "dice: expected a tuple of two dice");
        return NULL;
    }
    int d0, d1;
    if (read_die(PyTuple_GET_ITEM(dice, 0), &d0) < 0 || read_die(PyTuple_GET_ITEM(dice, 1), &d1) < 0)
        return NULL;
    if (own != Py_None && !is_ready_str(own, "own"))
        return NULL;
    Query q;
    PyObject *player = PyObject_GetAttr(position, state->player);
    PyObject *opponent = player ? PyObject_GetAttr(position, state->opponent) : NULL;
    int failed = opponent == NULL || read_query(player, opponent, &q) < 0;
    Py_XDECREF(player);
    Py_XDECREF(opponent);
    if (failed)
        return NULL;
    return build_line(texts, fragment, &q, position, NULL, d0, d1, own, NULL);
}

/* The line of a query: q and the dice (d0, d1 as written); own, the
 * position's ID as given (a str) or None; position, the Position for
 * fragment(position, key, moves), or NULL: then make_position(player,
 * opponent) makes it, at the first text missing. With a sink, a line of ASCII
 * is written at its end and None returned; any other line is returned as a str. */
static PyObject *build_line(Texts *texts, PyObject *fragment, const Query *query, PyObject *position,
                            PyObject *make_position, int d0, int d1, PyObject *own, Sink *sink)
{
    const Query q = *query;
    PyObject *made = NULL;   /* the position make_position made */

    Found found;
    memset(&found, 0, sizeof found);
    PyObject *result = NULL;
    PyObject **parts = NULL;   /* per play: its fragment (a new reference) */
    char *ids = NULL;
    PyObject *own_text = NULL;
    Py_ssize_t n = 0;
    if (generate(&q, d0 > d1 ? d0 : d1, d0 > d1 ? d1 : d0, &found) < 0)
        goto done;
    n = found.len;
    if (n == 0) {
        if (own == Py_None || PyUnicode_GET_LENGTH(own) == 0) {
            char text[ID_LENGTH];
            if (own_id(&q, text) < 0)
                goto done;
            own_text = PyUnicode_FromStringAndSize(text, ID_LENGTH);
            if (own_text == NULL)
                goto done;
        }
        else
            own_text = Py_NewRef(own);
        result = PyUnicode_FromFormat("{\"position_id\": \"%U\", \"dice\": [%d, %d], \"plays\": []}\n", own_text, d0, d1);
        goto done;
    }
    if (sort_entries(&found) < 0)   /* sorted(found) */
        goto done;
    parts = calloc((size_t)n, sizeof(PyObject *));
    ids = malloc((size_t)n * ID_LENGTH);
    if (parts == NULL || ids == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    uint8_t theirs[SLOTS];
    reversed_side(q.opp, theirs);
    Bits unhit;
    if (unhit_bits(theirs, &unhit) < 0)
        goto done;
    /* every look-up first, then the misses, as the Python line does (a miss may empty the texts);
     * the table's slots are fetched from memory for every play at once, before they are read */
    for (Py_ssize_t i = 0; i < n; i++)
        texts_prefetch(texts, text_code(&found.items[i]));
    for (Py_ssize_t i = 0; i < n; i++) {
        const Entry *e = &found.items[i];
        if (result_id(&e->key, theirs, &unhit, ids + i * ID_LENGTH) < 0)
            goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        parts[i] = texts_get(texts, text_code(&found.items[i]));
        if (parts[i] != NULL)
            PREFETCH(parts[i]);
    }
    for (Py_ssize_t i = 0; i < n; i++)
        Py_XINCREF(parts[i]);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (parts[i] != NULL)
            continue;
        if (texts->has_names && (parts[i] = fragment_of(texts, &found.items[i])) != NULL) {
            if (texts_put(texts, text_code(&found.items[i]), parts[i]) < 0)
                goto done;
            continue;
        }
        if (PyErr_Occurred())
            goto done;
        if (position == NULL) {
            PyObject *sides = sides_tuple(q.player, theirs);
            made = sides ? PyObject_CallFunctionObjArgs(make_position, PyTuple_GET_ITEM(sides, 0),
                                                        PyTuple_GET_ITEM(sides, 1), NULL) : NULL;
            Py_XDECREF(sides);
            if (made == NULL)
                goto done;
            position = made;
        }
        PyObject *key = key_int(&found.items[i].key);
        PyObject *moves = key ? moves_tuple(&found.items[i]) : NULL;
        if (moves != NULL)
            parts[i] = PyObject_CallFunctionObjArgs(fragment, position, key, moves, NULL);
        Py_XDECREF(key);
        Py_XDECREF(moves);
        if (parts[i] == NULL)
            goto done;
        if (!is_ready_str(parts[i], "a play's fragment") || texts_put(texts, text_code(&found.items[i]), parts[i]) < 0)
            goto done;
    }
    if (own == Py_None) {
        char text[ID_LENGTH];
        if (own_id(&q, text) < 0)
            goto done;
        own_text = PyUnicode_FromStringAndSize(text, ID_LENGTH);
        if (own_text == NULL)
            goto done;
    }
    else
        own_text = Py_NewRef(own);

    /* '{"position_id": "OWN", "dice": [A, B], "plays": [' + parts[0][4:] + id + parts[1] + id ... + '"}]}\n' */
    char head[] = "\", \"dice\": [A, B], \"plays\": [";
    int head_length = (int)(sizeof head - 1);
    head[12] = (char)('0' + d0);   /* the dice are 1..6 */
    head[15] = (char)('0' + d1);
    static const char opening[] = "{\"position_id\": \"", closing[] = "\"}]}\n";
    Py_ssize_t total = (Py_ssize_t)(sizeof opening - 1) + PyUnicode_GET_LENGTH(own_text) + head_length +
                       (Py_ssize_t)(sizeof closing - 1) + n * ID_LENGTH;
    Py_UCS4 widest = PyUnicode_MAX_CHAR_VALUE(own_text);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t length = PyUnicode_GET_LENGTH(parts[i]);
        total += i ? length : (length > 4 ? length - 4 : 0);
        Py_UCS4 width = PyUnicode_MAX_CHAR_VALUE(parts[i]);
        if (width > widest)
            widest = width;
    }
    Writer w;
    if (sink != NULL && widest < 128) {   /* straight into the sink: one byte a character */
        if (sink_reserve(sink, total) < 0)
            goto done;
        w.out = NULL;
        w.kind = PyUnicode_1BYTE_KIND;
        w.data = sink->data;
        w.at = sink->len;
    } else {
        w.out = PyUnicode_New(total, widest < 127 ? 127 : widest);
        if (w.out == NULL)
            goto done;
        w.kind = PyUnicode_KIND(w.out);
        w.data = PyUnicode_DATA(w.out);
        w.at = 0;
    }
    write_ascii(&w, opening, sizeof opening - 1);
    if (write_str(&w, own_text, 0) < 0)
        goto failed_write;
    write_ascii(&w, head, head_length);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (write_str(&w, parts[i], i ? 0 : 4) < 0)
            goto failed_write;
        write_ascii(&w, ids + i * ID_LENGTH, ID_LENGTH);
    }
    write_ascii(&w, closing, sizeof closing - 1);
    if (w.out == NULL) {
        sink->len = w.at;
        result = Py_NewRef(Py_None);
    } else
        result = w.out;
    goto done;
failed_write:
    Py_XDECREF(w.out);
done:
    if (parts != NULL) {
        for (Py_ssize_t i = 0; i < n; i++)
            Py_XDECREF(parts[i]);
        free(parts);
    }
    free(ids);
    Py_XDECREF(own_text);
    Py_XDECREF(made);
    found_free(&found);
    return result;
}

/* A batch line of a Position ID and dice, as bgcli.cli.batch.ID_AND_DICE_LINE reads it:
 * blanks, 14 base64 digits, blanks, a die, a separator (-,/x; blanks may
 * follow a comma) or blanks or none, a die, blanks (a roll in brackets is
 * left to the Python reader: 0). 1 with the ID's start and the dice, else 0. The dice
 * are spelt as bgcli.core.spelling.roll_of reads them (the owner).
 * Fenced mirror of roll_of: tests/test_spelling.py::test_the_c_line_reader_mirrors_the_owner */
static inline int is_blank(Py_UCS1 c)
{
    return c == ' ' || c == '\t' || c == '\f' || c == '\r' || c == '\n';
}

static int read_query_line(const Py_UCS1 *c, Py_ssize_t n, Py_ssize_t *id, int *a, int *b)
{
    Py_ssize_t i = 0;
    while (i < n && is_blank(c[i]))
        i++;
    *id = i;
    for (Py_ssize_t end = i + ID_LENGTH; i < end; i++)
        if (i >= n || base64_value(c[i]) < 0)
            return 0;
    Py_ssize_t blanks = i;
    while (i < n && is_blank(c[i]))
        i++;
    if (i == blanks || i >= n || c[i] < '1' || c[i] > '6')
        return 0;
    *a = c[i++] - '0';
    if (i < n && (c[i] == '-' || c[i] == ',' || c[i] == '/' || c[i] == 'x')) {
        if (c[i++] == ',')   /* 3, 1: blanks may follow a comma */
            while (i < n && is_blank(c[i]))
                i++;
    } else
        while (i < n && is_blank(c[i]))
            i++;
    if (i >= n || c[i] < '1' || c[i] > '6')
        return 0;
    *b = c[i++] - '0';
    while (i < n && is_blank(c[i]))
        i++;
    return i == n;
}

/* run_moves' common line, a Position ID and dice, in one call: its JSON
 * line, or None for any other line (or an ID that is not valid), which the
 * Python loop reads and words the error of. */
static PyObject *py_query_line(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "query_line(texts, fragment, make_position, line) takes 4 arguments");
        return NULL;
    }
    if (!PyObject_TypeCheck(args[0], &TextsType)) {
        PyErr_SetString(PyExc_TypeError, "texts: expected a Texts");
        return NULL;
    }
    PyObject *line = args[3];
    if (!is_ready_str(line, "line"))
        return NULL;
    if (PyUnicode_KIND(line) != PyUnicode_1BYTE_KIND)
        Py_RETURN_NONE;
    const Py_UCS1 *chars = PyUnicode_1BYTE_DATA(line);
    Py_ssize_t id;
    int a, b;
    Query q;
    uint8_t theirs[SLOTS];
    if (!read_query_line(chars, PyUnicode_GET_LENGTH(line), &id, &a, &b) || !read_id(chars + id, q.player, theirs))
        Py_RETURN_NONE;
    reversed_side(theirs, q.opp);
    /* the ID as written is the one written back when its unused last bits are 0, as gnubg writes them */
    Py_UCS1 last = chars[id + ID_LENGTH - 1];
    PyObject *own = (last == 'A' || last == 'Q' || last == 'g' || last == 'w') ?
        PyUnicode_Substring(line, id, id + ID_LENGTH) : Py_NewRef(Py_None);
    if (own == NULL)
        return NULL;
    PyObject *out = build_line((Texts *)args[0], args[1], &q, NULL, args[2], a > b ? a : b, a > b ? b : a, own, NULL);
    Py_DECREF(own);
    return out;
}

/* run_moves over batch_lines of a block of bytes, for as long as its lines are
 * Position IDs and dice: query_line of each line (as batch_lines decodes it),
 * their answers joined. Fenced mirror of run_moves' loop over batch_lines,
 * bgcli.cli.batch.run_moves_stream its caller:
 * tests/test_speedups.py::test_query_lines_answers_what_run_moves_answers.
 * A line is data[at:newline]; it stops at the first line that has no newline
 * before end, is longer than max_line bytes with its newline (batch_lines'
 * BadLine), holds a carriage return but for one before its newline (a
 * BadLine), or is not a Position ID and dice (query_line's None; a byte that
 * is not ASCII is never part of one, so a line answered is UTF-8 text). Returns
 * (the answers' text, where it stopped, the lines answered). */
static PyObject *py_query_lines(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "query_lines(texts, fragment, make_position, data, start, end, max_line) "
                                         "takes 7 arguments");
        return NULL;
    }
    if (!PyObject_TypeCheck(args[0], &TextsType)) {
        PyErr_SetString(PyExc_TypeError, "texts: expected a Texts");
        return NULL;
    }
    if (!PyBytes_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "data: expected bytes");
        return NULL;
    }
    Py_ssize_t start = PyLong_AsSsize_t(args[4]), end = PyLong_AsSsize_t(args[5]), max_line = PyLong_AsSsize_t(args[6]);
    if (PyErr_Occurred())
        return NULL;
    const char *data = PyBytes_AS_STRING(args[3]);
    if (start < 0 || end > PyBytes_GET_SIZE(args[3]) || start > end || max_line < 0) {
        PyErr_SetString(PyExc_ValueError, "query_lines: expected 0 <= start <= end <= len(data), max_line >= 0");
        return NULL;
    }
    PyObject *answers = PyList_New(0);   /* the text so far: the sink's ASCII, and any line not ASCII */
    if (answers == NULL)
        return NULL;
    Sink sink = {NULL, 0, 0};
    Py_ssize_t at = start, count = 0;
    while (at < end) {
        const char *newline = memchr(data + at, '\n', (size_t)(end - at));
        if (newline == NULL)
            break;
        Py_ssize_t n = newline - (data + at);
        if (n + 1 > max_line + 1)
            break;
        const Py_UCS1 *c = (const Py_UCS1 *)(data + at);
        if (n && c[n - 1] == '\r')
            n--;
        if (memchr(c, '\r', (size_t)n) != NULL)
            break;
        Py_ssize_t id;
        int a, b;
        Query q;
        uint8_t theirs[SLOTS];
        if (!read_query_line(c, n, &id, &a, &b) || !read_id(c + id, q.player, theirs))
            break;
        reversed_side(theirs, q.opp);
        Py_UCS1 last = c[id + ID_LENGTH - 1];
        PyObject *own = (last == 'A' || last == 'Q' || last == 'g' || last == 'w') ?
            PyUnicode_FromStringAndSize((const char *)c + id, ID_LENGTH) : Py_NewRef(Py_None);
        PyObject *answer = own ? build_line((Texts *)args[0], args[1], &q, NULL, args[2], a > b ? a : b,
                                            a > b ? b : a, own, &sink) : NULL;
        Py_XDECREF(own);
        if (answer == NULL || (answer != Py_None && (sink_flush(&sink, answers) < 0 ||
                                                     PyList_Append(answers, answer) < 0))) {
            Py_XDECREF(answer);
            Py_DECREF(answers);
            free(sink.data);
            return NULL;
        }
        Py_DECREF(answer);
        count++;
        at = newline - data + 1;
    }
    PyObject *text = NULL;
    if (sink_flush(&sink, answers) == 0) {
        if (PyList_GET_SIZE(answers) == 1)
            text = Py_NewRef(PyList_GET_ITEM(answers, 0));
        else {
            PyObject *empty = PyUnicode_FromStringAndSize("", 0);
            text = empty ? PyUnicode_Join(empty, answers) : NULL;
            Py_XDECREF(empty);
        }
    }
    free(sink.data);
    Py_DECREF(answers);
    if (text == NULL)
        return NULL;
    return Py_BuildValue("Nnn", text, at, count);
}

/* ---- play_text: notation.canonical_text in C ----------------------------------
 * Fenced mirror of bgcli.core.notation.canonical_text (gnubg's layout of a play
 * given as the generator keeps it: raw pairs and hit marks), line for line, for
 * point names that are ASCII; tests/test_speedups.py::test_play_text_writes_what_canonical_text_writes
 * compares the two on generated plays. None for names it does not take (Korean):
 * then the Python code writes the text. */

typedef struct {
    char text[160];
    Py_ssize_t len;
} Buffer;

static int put(Buffer *b, const char *text, Py_ssize_t len)
{
    if (b->len + len >= (Py_ssize_t)sizeof b->text)
        return -1;
    memcpy(b->text + b->len, text, (size_t)len);
    b->len += len;
    return 0;
}

static int put_name(Buffer *b, const char *const *names, const Py_ssize_t *lengths, long point)
{
    return put(b, names[point], lengths[point]);
}

static int put_count(Buffer *b, int count)
{
    char text[8];
    int len = snprintf(text, sizeof text, "(%d)", count);
    return put(b, text, len);
}

static int write_play_text(Buffer *b_out, const long *m, Py_ssize_t n, unsigned long long hits,
                           const char *const *names, const Py_ssize_t *lengths);

static PyObject *py_play_text(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "play_text(moves, hits, names) takes 3 arguments");
        return NULL;
    }
    PyObject *moves = args[0], *names_tuple = args[2];
    if (!PyTuple_Check(moves) || PyTuple_GET_SIZE(moves) > 8 || PyTuple_GET_SIZE(moves) % 2 ||
        !PyTuple_Check(names_tuple) || PyTuple_GET_SIZE(names_tuple) != 26) {
        PyErr_SetString(PyExc_ValueError, "play_text: expected up to four raw pairs and 26 point names");
        return NULL;
    }
    unsigned long long hits = PyLong_AsUnsignedLongLong(args[1]);
    if (hits == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    const char *names[26];
    Py_ssize_t lengths[26];
    for (int i = 0; i < 26; i++) {
        PyObject *name = PyTuple_GET_ITEM(names_tuple, i);
        if (!PyUnicode_Check(name) || !PyUnicode_IS_ASCII(name) || PyUnicode_GET_LENGTH(name) > 12)
            Py_RETURN_NONE;
        names[i] = (const char *)PyUnicode_DATA(name);
        lengths[i] = PyUnicode_GET_LENGTH(name);
    }
    Py_ssize_t n = PyTuple_GET_SIZE(moves);
    long m[8];
    for (Py_ssize_t i = 0; i < n; i++) {
        m[i] = PyLong_AsLong(PyTuple_GET_ITEM(moves, i));
        if (m[i] == -1 && PyErr_Occurred())
            return NULL;
        if (m[i] < 0 || m[i] > 25) {
            PyErr_SetString(PyExc_ValueError, "play_text: a point is from 0 to 25");
            return NULL;
        }
    }
    Buffer b;
    b.len = 0;
    if (write_play_text(&b, m, n, hits, names, lengths) < 0)
        Py_RETURN_NONE;
    return PyUnicode_FromStringAndSize(b.text, b.len);
}

/* The text of the play of raw pairs m[0..n) and hit marks hits (each point 0..25) in
 * names, into b: 0, or -1 when it is too long for b. */
static int write_play_text(Buffer *b_out, const long *m, Py_ssize_t n, unsigned long long hits,
                           const char *const *names, const Py_ssize_t *lengths)
{
#define HIT(p) ((hits >> (p)) & 1)
    Buffer b;
    b.len = 0;
    int failed = 0;
    if (n == 4) {   /* the common play of two steps */
        long a = m[0], bb = m[1], c = m[2], d = m[3];
        if (c > a || (c == a && d > bb)) {
            long t = a; a = c; c = t;
            t = bb; bb = d; d = t;
        }
        int hit_b = HIT(bb), hit_d = HIT(d);
        if (c == bb && bb) {   /* one checker on: its middle point shown where it hits */
            failed |= put_name(&b, names, lengths, a);
            if (hit_b)
                failed |= put(&b, "/", 1) | put_name(&b, names, lengths, bb) | put(&b, "*", 1);
            failed |= put(&b, "/", 1) | put_name(&b, names, lengths, d);
            if (hit_d)
                failed |= put(&b, "*", 1);
        } else {
            failed |= put_name(&b, names, lengths, a) | put(&b, "/", 1) | put_name(&b, names, lengths, bb);
            if (hit_b)
                failed |= put(&b, "*", 1);
            if (a == c && bb == d) {
                failed |= put(&b, "(2)", 3);
            } else {
                failed |= put(&b, " ", 1) | put_name(&b, names, lengths, c) | put(&b, "/", 1) |
                          put_name(&b, names, lengths, d);
                if (hit_d && d != bb)
                    failed |= put(&b, "*", 1);
            }
        }
    } else if (n == 2) {
        failed |= put_name(&b, names, lengths, m[0]) | put(&b, "/", 1) | put_name(&b, names, lengths, m[1]);
        if (HIT(m[1]))
            failed |= put(&b, "*", 1);
    } else {
        /* each chain of one checker's steps, highest start first, goes on with the next step from
           where it ended (not from off); identical chains, one after another, are written once with
           their count; a hit point is marked once, where it first appears */
        long starts[4], ends[4];
        int left = (int)(n / 2);
        for (int i = 0; i < left; i++) {
            starts[i] = m[2 * i];
            ends[i] = m[2 * i + 1];
        }
        for (int i = 1; i < left; i++)   /* sorted, highest (start, end) first */
            for (int j = i; j > 0 && (starts[j] > starts[j - 1] || (starts[j] == starts[j - 1] && ends[j] > ends[j - 1])); j--) {
                long t = starts[j]; starts[j] = starts[j - 1]; starts[j - 1] = t;
                t = ends[j]; ends[j] = ends[j - 1]; ends[j - 1] = t;
            }
        unsigned long long unmarked = hits;
        long previous[5], chain[5];
        int previous_len = 0, count = 0, written = 0;
        Buffer text;
        text.len = 0;
        while (left) {
            long s = starts[0], e = ends[0];
            for (int k = 1; k < left; k++) {
                starts[k - 1] = starts[k];
                ends[k - 1] = ends[k];
            }
            left--;
            int chain_len = 0;
            chain[chain_len++] = s;
            chain[chain_len++] = e;
            int i = 0;
            while (e && i < left) {
                if (starts[i] == e) {
                    e = ends[i];
                    for (int k = i + 1; k < left; k++) {
                        starts[k - 1] = starts[k];
                        ends[k - 1] = ends[k];
                    }
                    left--;
                    chain[chain_len++] = e;
                } else {
                    i++;
                }
            }
            if (previous_len && chain_len == previous_len && !memcmp(chain, previous, sizeof(long) * (size_t)chain_len)) {
                count++;
                continue;
            }
            if (previous_len) {
                failed |= (written ? put(&b, " ", 1) : 0) | put(&b, text.text, text.len);
                if (count > 1)
                    failed |= put_count(&b, count);
                written = 1;
            }
            memcpy(previous, chain, sizeof(long) * (size_t)chain_len);
            previous_len = chain_len;
            count = 1;
            text.len = 0;
            failed |= put_name(&text, names, lengths, s);
            int last = chain_len - 1;
            for (int k = 1; k <= last; k++) {
                long point = chain[k];
                if ((unmarked >> point) & 1) {
                    failed |= put(&text, "/", 1) | put_name(&text, names, lengths, point) | put(&text, "*", 1);
                    unmarked ^= 1ULL << point;
                } else if (k == last || HIT(point)) {   /* a merged point is shown only where a blot was hit */
                    failed |= put(&text, "/", 1) | put_name(&text, names, lengths, point);
                }
            }
        }
        failed |= (written ? put(&b, " ", 1) : 0) | put(&b, text.text, text.len);
        if (count > 1)
            failed |= put_count(&b, count);
    }
#undef HIT
    if (failed)
        return -1;
    *b_out = b;
    return 0;
}

static PyObject *fragment_of(const Texts *texts, const Entry *e)
{
    static const char before[] = "\"}, {\"play\": \"", after[] = "\", \"position_id\": \"";
    const char *names[26];
    for (int i = 0; i < 26; i++)
        names[i] = texts->names[i];
    long m[8];
    for (int i = 0; i < e->n; i++)
        m[i] = e->moves[i];
    Buffer text;
    text.len = 0;
    if (write_play_text(&text, m, e->n, e->key.hits, names, texts->name_lengths) < 0)
        return NULL;
    Buffer b;
    b.len = 0;
    if (put(&b, before, sizeof before - 1) | put(&b, text.text, text.len) | put(&b, after, sizeof after - 1))
        return NULL;
    return PyUnicode_FromStringAndSize(b.text, b.len);
}

/* ---- sides_after_steps: judge._on_counts in C ---------------------------------
 * Fenced mirror of bgcli.core.judge.sides_after_steps (its _on_counts, _usual and
 * _made, the sides only), branch for branch, for the audit's short path:
 * tests/test_audit_steps.py::test_sides_after_steps_in_c_is_the_python_judge compares
 * the two on generated positions and steps, legal or not. NotImplemented for input it
 * does not read (not 26 counts, numbers beyond a long): then the Python code decides. */

#define SIDE 26
#define BAR_POINT 25

static int read_counts(PyObject *side, long *out)
{
    if (!PyTuple_Check(side) || PyTuple_GET_SIZE(side) != SIDE)
        return -1;
    for (int i = 0; i < SIDE; i++) {
        PyObject *item = PyTuple_GET_ITEM(side, i);
        if (!PyLong_CheckExact(item))
            return -1;
        int overflow = 0;
        out[i] = PyLong_AsLongAndOverflow(item, &overflow);
        if (overflow || out[i] > 1000000 || out[i] < -1000000)
            return -1;
    }
    return 0;
}

static PyObject *counts_tuple(const long *counts)
{
    PyObject *out = PyTuple_New(SIDE);
    if (out == NULL)
        return NULL;
    for (int i = 0; i < SIDE; i++) {
        PyObject *n = PyLong_FromLong(counts[i]);
        if (n == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, n);
    }
    return out;
}

/* judge._made: the steps made in this order with these dice on the counts; 1 and me, opp
 * filled, or 0 when a step may not be made */
static int made_steps(const long *player, const long *opponent, const long (*moves)[2], int n, const int *dies,
                      long *me, long *opp)
{
    memcpy(me, player, sizeof(long) * SIDE);
    memcpy(opp, opponent, sizeof(long) * SIDE);
    for (int i = 0; i < n; i++) {
        long start = moves[i][0], end = moves[i][1];
        int die = dies[i];
        if (!(0 < start && start <= BAR_POINT && 0 <= end && end < start) || !me[start] ||
            (me[BAR_POINT] && start != BAR_POINT))
            return 0;
        long distance = start - end;
        if (end) {
            if (distance != die)
                return 0;
            long landing = opp[25 - end];
            if (landing >= 2)
                return 0;
            me[start] -= 1;
            me[end] += 1;
            if (landing) {
                opp[25 - end] = 0;
                opp[BAR_POINT] += 1;
            }
        } else {
            if (distance > die)
                return 0;
            for (int p = 7; p < SIDE; p++)
                if (me[p])
                    return 0;
            if (die > start)
                for (long p = start + 1; p < 7; p++)
                    if (me[p])
                        return 0;
            me[start] -= 1;
            me[0] += 1;
        }
    }
    return 1;
}

static PyObject *sides_pair(const long *me, const long *opp, PyObject *opponent_same)
{
    PyObject *mine = counts_tuple(me);
    if (mine == NULL)
        return NULL;
    PyObject *theirs = opponent_same;
    if (theirs != NULL)
        Py_INCREF(theirs);
    else
        theirs = counts_tuple(opp);
    if (theirs == NULL) {
        Py_DECREF(mine);
        return NULL;
    }
    PyObject *out = PyTuple_Pack(2, mine, theirs);
    Py_DECREF(mine);
    Py_DECREF(theirs);
    return out;
}

/* judge._on_counts' sides after n (2 or 4, as the dice ask) steps: 1 and me and opp filled (*hit
 * 0 when opp is the opponent unchanged), or 0 when no way of one step a die makes them (then
 * the Python judge decides) */
static int steps_made(const long *player, const long *opponent, long high, long low, long moves[4][2], long *me,
                      long *opp, int *hit)
{
    *hit = 1;
    if (high != low) {
        long s1 = moves[0][0], e1 = moves[0][1], s2 = moves[1][0], e2 = moves[1][1];
        long d1 = s1 - e1, d2 = s2 - e2;
        if (e1 > 0 && e2 > 0 && s1 <= BAR_POINT && s2 <= BAR_POINT &&
            ((d1 == high && d2 == low) || (d1 == low && d2 == high))) {
            /* judge._usual: the dice fixed by the distances, only the order can matter */
            long h1 = opponent[25 - e1], h2 = opponent[25 - e2];
            if (h1 >= 2 || h2 >= 2)
                return 0;
            long bar = player[BAR_POINT];
            int first = player[s1] && (!bar || s1 == BAR_POINT) && player[s2] - (s2 == s1) + (s2 == e1) > 0 &&
                        (bar - (s1 == BAR_POINT) == 0 || s2 == BAR_POINT);
            int second = !first && player[s2] && (!bar || s2 == BAR_POINT) && player[s1] - (s1 == s2) + (s1 == e2) > 0 &&
                         (bar - (s2 == BAR_POINT) == 0 || s1 == BAR_POINT);
            if (!first && !second)
                return 0;
            memcpy(me, player, sizeof(long) * SIDE);
            me[s1] -= 1;
            me[e1] += 1;
            me[s2] -= 1;
            me[e2] += 1;
            if (!h1 && !h2) {
                memcpy(opp, opponent, sizeof(long) * SIDE);
                *hit = 0;
                return 1;
            }
            memcpy(opp, opponent, sizeof(long) * SIDE);
            long hit_point = -1;   /* two landings on one blot hit it once */
            const long ends[2] = {e1, e2}, held[2] = {h1, h2};
            for (int k = 0; k < 2; k++) {
                if (held[k] && ends[k] != hit_point) {
                    if (hit_point < 0)
                        hit_point = ends[k];
                    opp[25 - ends[k]] = 0;
                    opp[BAR_POINT] += 1;
                }
            }
            return 1;
        }
        /* a bear-off: which die a step takes, and the order, may matter */
        const long orders[2][2] = {{high, low}, {low, high}};
        for (int o = 0; o < 2; o++) {
            long first = orders[o][0], second = orders[o][1];
            if ((d1 == first || (!e1 && d1 < first)) && (d2 == second || (!e2 && d2 < second))) {
                int dies[2] = {(int)first, (int)second};
                if (made_steps(player, opponent, (const long (*)[2])moves, 2, dies, me, opp))
                    return 1;
                const long reversed[2][2] = {{moves[1][0], moves[1][1]}, {moves[0][0], moves[0][1]}};
                int back[2] = {(int)second, (int)first};
                if (made_steps(player, opponent, reversed, 2, back, me, opp))
                    return 1;
            }
        }
        return 0;
    }
    int dies[4] = {(int)high, (int)high, (int)high, (int)high};
    if (made_steps(player, opponent, (const long (*)[2])moves, 4, dies, me, opp))
        return 1;
    /* then from the highest start down (a stable sort: equal starts keep their order) */
    long sorted_moves[4][2];
    memcpy(sorted_moves, moves, sizeof sorted_moves);
    for (int i = 1; i < 4; i++)
        for (int j = i; j > 0 && sorted_moves[j][0] > sorted_moves[j - 1][0]; j--) {
            long t0 = sorted_moves[j][0], t1 = sorted_moves[j][1];
            sorted_moves[j][0] = sorted_moves[j - 1][0];
            sorted_moves[j][1] = sorted_moves[j - 1][1];
            sorted_moves[j - 1][0] = t0;
            sorted_moves[j - 1][1] = t1;
        }
    if (made_steps(player, opponent, (const long (*)[2])sorted_moves, 4, dies, me, opp))
        return 1;
    return 0;
}

/* steps_made as Python values: a new reference to the pair of sides, or to None; opponent_same,
 * the opponent's tuple, is handed back when no blot is hit */
static PyObject *sides_of_steps(const long *player, const long *opponent, PyObject *opponent_same, long high,
                                long low, long moves[4][2])
{
    long me[SIDE], opp[SIDE];
    int hit;
    if (!steps_made(player, opponent, high, low, moves, me, opp, &hit))
        Py_RETURN_NONE;
    return hit ? sides_pair(me, opp, NULL) : sides_pair(me, NULL, opponent_same);
}

static PyObject *py_sides_after_steps(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "sides_after_steps(player, opponent, high, low, moves) takes 5 arguments");
        return NULL;
    }
    long player[SIDE], opponent[SIDE];
    if (read_counts(args[0], player) < 0 || read_counts(args[1], opponent) < 0 || !PyLong_CheckExact(args[2]) ||
        !PyLong_CheckExact(args[3]))
        Py_RETURN_NOTIMPLEMENTED;
    int overflow = 0;
    long high = PyLong_AsLongAndOverflow(args[2], &overflow);
    long low = overflow ? 0 : PyLong_AsLongAndOverflow(args[3], &overflow);
    if (overflow || high < 1 || high > 6 || low < 1 || low > 6)
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *seq = PySequence_Fast(args[4], "moves");
    if (seq == NULL) {
        PyErr_Clear();
        Py_RETURN_NOTIMPLEMENTED;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n != (high != low ? 2 : 4)) {
        Py_DECREF(seq);
        Py_RETURN_NONE;   /* _on_counts: a play of every die, one step a die */
    }
    long moves[4][2];
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *move = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyTuple_Check(move) || PyTuple_GET_SIZE(move) != 2 || !PyLong_CheckExact(PyTuple_GET_ITEM(move, 0)) ||
            !PyLong_CheckExact(PyTuple_GET_ITEM(move, 1))) {
            Py_DECREF(seq);
            Py_RETURN_NOTIMPLEMENTED;
        }
        for (int k = 0; k < 2; k++) {
            moves[i][k] = PyLong_AsLongAndOverflow(PyTuple_GET_ITEM(move, k), &overflow);
            if (overflow || moves[i][k] > 1000000 || moves[i][k] < -1000000) {
                Py_DECREF(seq);
                Py_RETURN_NOTIMPLEMENTED;
            }
        }
    }
    Py_DECREF(seq);
    return sides_of_steps(player, opponent, args[1], high, low, moves);
}

/* ---- sides_after_play: the audit's short path of a play, in C ----------------------
 * Fenced mirror of bgcli.match.plays.sides_after_play for plays in the spelling of gnubg's
 * .mat export or as gnubg shows them (its written_pairs' two regular expressions, split_steps,
 * then steps_made above):
 * tests/test_audit_steps.py::test_sides_after_play_in_c_is_the_python_short_path compares
 * the two on generated positions, dice and texts. It answers only where the Python code
 * settles the play on the counts; anything else (another spelling, a text with blanks
 * around it, no dice, a play the counts cannot settle) is NotImplemented: the Python
 * code decides. */

/* plays._SHOWN_POINT at c[*at]: _PLAIN_POINT ("2[0-5]|1?[0-9]") or the words bar (25) and off
 * (0): the point, or -1 */
static long shown_point(const Py_UCS1 *c, Py_ssize_t n, Py_ssize_t *at)
{
    Py_ssize_t i = *at;
    if (i + 3 <= n && (memcmp(c + i, "bar", 3) == 0 || memcmp(c + i, "off", 3) == 0)) {
        *at = i + 3;
        return c[i] == 'b' ? 25 : 0;
    }
    if (i >= n || c[i] < '0' || c[i] > '9')
        return -1;
    if (i + 1 < n && c[i + 1] >= '0' && c[i + 1] <= '9' && (c[i] == '1' || (c[i] == '2' && c[i + 1] <= '5'))) {
        *at = i + 2;
        return (c[i] - '0') * 10 + (c[i + 1] - '0');
    }
    *at = i + 1;
    return c[i] - '0';
}

/* plays.written_pairs of a text in the spelling of gnubg's .mat export (_PLAIN_PLAY: "13/8 8/5*")
 * or as gnubg shows plays (_SHOWN_PLAY: chains, repeats, bar and off: "bar/20 6/2(2)"),
 * read to the same pairs: their number (at most 4; more: -1), or -1 when the whole text is
 * neither */
static int shown_pairs(const Py_UCS1 *c, Py_ssize_t n, long pairs[4][2])
{
    Py_ssize_t at = 0;
    int count = 0;
    for (;;) {
        long points[6];
        int hops = 0;
        points[0] = shown_point(c, n, &at);
        if (points[0] < 0)
            return -1;
        if (at < n && c[at] == '*')
            at++;
        while (at < n && c[at] == '/') {
            at++;
            if (hops == 5)
                return -1;
            points[hops + 1] = shown_point(c, n, &at);
            if (points[hops + 1] < 0)
                return -1;
            hops++;
            if (at < n && c[at] == '*')
                at++;
        }
        if (!hops)
            return -1;
        int repeat = 1;
        if (at < n && c[at] == '(') {
            if (at + 3 > n || c[at + 1] < '1' || c[at + 1] > '4' || c[at + 2] != ')')
                return -1;
            repeat = c[at + 1] - '0';
            at += 3;
        }
        if (count + hops * repeat > 4)
            return -1;
        for (int r = 0; r < repeat; r++)
            for (int h = 0; h < hops; h++) {
                pairs[count][0] = points[h];
                pairs[count][1] = points[h + 1];
                count++;
            }
        if (at == n)
            return count;
        if (c[at] != ' ' && c[at] != '\t')
            return -1;
        while (at < n && (c[at] == ' ' || c[at] == '\t'))
            at++;
    }
}

/* the sides after the play c[0, n) of dice a and b, as sides_after_play settles it: 1 and me and
 * opp filled (*hit as steps_made says), or 0 when it does not (another spelling, a play the
 * counts cannot settle) */
static int play_made(const long *player, const long *opponent, int a, int b, const Py_UCS1 *c, Py_ssize_t n,
                     long *me, long *opp, int *hit)
{
    long high = a > b ? a : b, low = a > b ? b : a;
    long pairs[4][2];
    int count = shown_pairs(c, n, pairs);
    if (count < 0)
        return 0;
    long moves[4][2];
    int steps = 0;
    /* plays.split_steps: a pair that covers several dice, one step a die through open points */
    if (high != low) {
        memcpy(moves, pairs, sizeof moves);
        steps = count;
        long start = pairs[0][0], end = pairs[0][1];
        if (count == 1 && start - end == high + low && 0 < end && end < start && start <= 25) {
            const long middles[2] = {start - high, start - low};
            for (int k = 0; k < 2; k++)
                if (!opponent[25 - middles[k]]) {
                    moves[0][0] = start;
                    moves[0][1] = middles[k];
                    moves[1][0] = middles[k];
                    moves[1][1] = end;
                    steps = 2;
                    break;
                }
        }
    } else if (count == 4) {
        memcpy(moves, pairs, sizeof moves);
        steps = 4;
    } else {
        for (int i = 0; i < count; i++) {
            long start = pairs[i][0], end = pairs[i][1];
            int split = 0;
            if (0 <= end && end < start && start <= 25 && start - end > high && (end == 0 || (start - end) % high == 0)) {
                split = 1;
                for (long p = start - high; p > end; p -= high)
                    if (opponent[25 - p]) {
                        split = 0;
                        break;
                    }
            }
            if (split) {
                for (long p = start; p > end; p -= high) {
                    if (steps == 4)
                        return 0;   /* more steps than dice: the Python code says */
                    moves[steps][0] = p;
                    moves[steps][1] = p - high > end ? p - high : end;
                    steps++;
                }
            } else {
                if (steps == 4)
                    return 0;
                moves[steps][0] = start;
                moves[steps][1] = end;
                steps++;
            }
        }
    }
    if (steps != (high != low ? 2 : 4))
        return 0;
    return steps_made(player, opponent, high, low, moves, me, opp, hit);
}

static PyObject *py_sides_after_play(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "sides_after_play(mine, theirs, dice, text, side) takes 5 arguments");
        return NULL;
    }
    long player[SIDE], opponent[SIDE], me[SIDE], opp[SIDE];
    PyObject *dice = args[2], *text = args[3];
    if (!PyTuple_CheckExact(dice) || PyTuple_GET_SIZE(dice) != 2 || !PyUnicode_CheckExact(text) ||
        !PyUnicode_IS_READY(text) || !PyUnicode_IS_ASCII(text) || read_counts(args[0], player) < 0 ||
        read_counts(args[1], opponent) < 0)
        Py_RETURN_NOTIMPLEMENTED;
    int a, b, hit;
    if (read_die(PyTuple_GET_ITEM(dice, 0), &a) < 0 || read_die(PyTuple_GET_ITEM(dice, 1), &b) < 0) {
        PyErr_Clear();
        Py_RETURN_NOTIMPLEMENTED;
    }
    if (!play_made(player, opponent, a, b, PyUnicode_1BYTE_DATA(text), PyUnicode_GET_LENGTH(text), me, opp, &hit))
        Py_RETURN_NOTIMPLEMENTED;
    return hit ? sides_pair(me, opp, NULL) : sides_pair(me, NULL, args[1]);
}

/* ---- sides_after_plays: the audit's run of plays in turn, in C ----------------------
 * Fenced mirror of the short path of bgcli.match.game.GameReplay.apply_all (the run of plays
 * in turn that sides_after_play settles, one after the other, the sides kept as counts, and,
 * given the dance kind, the rolls with no play among them that plays.settled_roll settles):
 * tests/test_audit_steps.py::test_sides_after_plays_in_c_is_the_run_of_the_python_short_path
 * compares the two on generated games. It stops at the first action it does not settle
 * (not a play of the side on roll, a spelling or play sides_after_play's C leaves to Python,
 * a roll with no play the counts do not prove) and after a play that ends the game: apply_all
 * goes on from there. */

/* The arguments a run of plays in turn starts from, (actions, at, first, second, side, last_line, ...):
 * 1 with at, the side on roll, the last line and both sides' counts read; 0 when they are not what a run
 * starts from (it settles nothing then); -1 with an exception (at past a Py_ssize_t). The one reading of
 * them for sides_after_plays and dice_after_plays. */
static int read_run_start(PyObject *const *args, Py_ssize_t *at, long *side, long *last_line, long sides[2][SIDE])
{
    int overflow = 0;
    *at = PyLong_AsSsize_t(args[1]);
    *side = PyLong_AsLongAndOverflow(args[4], &overflow);
    *last_line = overflow ? 0 : PyLong_AsLongAndOverflow(args[5], &overflow);
    if (*at == -1 && PyErr_Occurred())
        return -1;
    return !overflow && *at >= 0 && (*side == 0 || *side == 1) && read_counts(args[2], sides[0]) == 0 &&
           read_counts(args[3], sides[1]) == 0;
}

/* Whether a roll of a and b with no play is proved so by the counts alone (judge.dances: a checker
 * of the mover's on the bar, each die's entry point held by two or more of the opponent's), as
 * plays.settled_roll settles a roll with no play in apply_all's run. */
static inline int dance_proved(const long *mine, const long *opponent, int a, int b)
{
    return mine[BAR_POINT] && opponent[a] >= 2 && opponent[b] >= 2;
}

static PyObject *py_sides_after_plays(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if ((nargs != 7 && nargs != 8) || !(PyList_CheckExact(args[0]) || PyTuple_CheckExact(args[0])) || !PyLong_CheckExact(args[1]) || !PyLong_CheckExact(args[4]) ||
        !PyLong_CheckExact(args[5])) {
        PyErr_SetString(PyExc_TypeError,
                        "sides_after_plays(actions, at, first, second, side, last_line, move[, dance]) takes a list or tuple and ints");
        return NULL;
    }
    /* dance: the kind of a roll with no play, settled too where the counts prove it (without it, such a
     * roll ends the run, as before) */
    PyObject *actions = args[0], *move = args[6], *dance = nargs == 8 ? args[7] : NULL;
    Py_ssize_t at;
    long side, last_line, sides[2][SIDE], after[2][SIDE];
    int overflow = 0, start = read_run_start(args, &at, &side, &last_line, sides);
    if (start < 0)
        return NULL;
    Py_ssize_t done = 0;
    int over = 0;
    if (start) {
        for (Py_ssize_t i = at; i < PySequence_Fast_GET_SIZE(actions); i++) {
            PyObject *action = PySequence_Fast_GET_ITEM(actions, i);
            if (!PyTuple_Check(action) || PyTuple_GET_SIZE(action) < 7)
                break;
            PyObject *kind = PyTuple_GET_ITEM(action, 4);
            if (kind != move && (dance == NULL || kind != dance))
                break;
            PyObject *line = PyTuple_GET_ITEM(action, 0), *mover = PyTuple_GET_ITEM(action, 3);
            PyObject *dice = PyTuple_GET_ITEM(action, 5), *text = PyTuple_GET_ITEM(action, 6);
            int no_text = text == Py_None || (PyUnicode_CheckExact(text) && PyUnicode_GET_LENGTH(text) == 0);
            if (!PyLong_CheckExact(mover) || PyLong_AsLong(mover) != side || !PyLong_CheckExact(line) ||
                !PyTuple_CheckExact(dice) || PyTuple_GET_SIZE(dice) != 2 ||
                (kind == move && (!PyUnicode_CheckExact(text) || !PyUnicode_IS_READY(text) || !PyUnicode_IS_ASCII(text))) ||
                (kind != move && !no_text)) {
                PyErr_Clear();
                break;
            }
            long number = PyLong_AsLongAndOverflow(line, &overflow);
            int a, b, hit;
            if (overflow || read_die(PyTuple_GET_ITEM(dice, 0), &a) < 0 || read_die(PyTuple_GET_ITEM(dice, 1), &b) < 0) {
                PyErr_Clear();
                break;
            }
            if (kind != move) {   /* the sides stay as they are */
                if (!dance_proved(sides[side], sides[1 - side], a, b))
                    break;
            } else if (play_made(sides[side], sides[1 - side], a, b, PyUnicode_1BYTE_DATA(text),
                                 PyUnicode_GET_LENGTH(text), after[side], after[1 - side], &hit))
                memcpy(sides, after, sizeof sides);
            else
                break;
            done++;
            if (number > last_line)
                last_line = number;
            side = 1 - side;
            if (sides[0][0] == 15 || sides[1][0] == 15) {   /* position.CHECKERS borne off: the game is over */
                over = 1;
                break;
            }
        }
    }
    if (!done)
        return Py_BuildValue("(nOOlOO)", done, args[2], args[3], side, args[5], Py_False);
    PyObject *first = counts_tuple(sides[0]);
    PyObject *second = first == NULL ? NULL : counts_tuple(sides[1]);
    if (second == NULL) {
        Py_XDECREF(first);
        return NULL;
    }
    PyObject *out = Py_BuildValue("(nNNllO)", done, first, second, side, last_line, over ? Py_True : Py_False);
    return out;
}

/* ---- roll_chances and dice_after_plays: the dice audit's rolls, in C ----------------
 * Fenced mirror of bgcli.judging.dice.roll_chances (DiceTally._chances_of: entering, the
 * hitting rolls of bgcli.judging.diceshots.hitting_rolls, finishing_rolls, saving_rolls,
 * then what the roll made of them), branch for branch (the hitting checks walk masks of points
 * where diceshots walks the checkers: the same decisions), the generator (generate above, the
 * mirror of generator.legal_keys) asked where the Python code asks legal_keys:
 * tests/test_dice_shots.py::test_the_chances_in_c_are_the_python_chances compares the two on
 * generated positions and every roll; and of the dice tally's run of plays in turn (the
 * short path of GameReplay.apply_with_events with a visitor that takes a run of plays: the
 * plays and the rolls with no play as apply_all's short path settles them, on the counts):
 * tests/test_dice_runs.py::test_the_run_of_plays_in_c_is_the_python_short_path_and_chances compares the
 * two on generated games. Given the dice tally's state and counts (count_rolls' own), it counts the rolls it
 * settles into them (count_roll, below) rather than answering their facts:
 * test_the_run_of_plays_in_c_counts_its_rolls_as_the_python_tally compares that with DiceTally._rolled of
 * the facts. */

#define NO_ANSWER (-2)   /* diceshots' None: mixed_hits found only hits that leave the other die unplayable */

static inline uint64_t roll_bit(int high, int low)
{
    return (uint64_t)1 << ((high - 1) * 6 + (low - 1));
}

/* the rolls of a mask (its bits set): counted in place, as __builtin_popcountll is a call into the
 * compiler's library where the build does not ask for the processor's instruction */
static inline int mask_rolls(uint64_t mask)
{
    mask -= (mask >> 1) & 0x5555555555555555ULL;
    mask = (mask & 0x3333333333333333ULL) + ((mask >> 2) & 0x3333333333333333ULL);
    mask = (mask + (mask >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((mask * 0x0101010101010101ULL) >> 56);
}

/* roll_bit of the six doubles: bits 0, 7, 14, 21, 28, 35 */
#define DOUBLE_BITS ((uint64_t)0x810204081ULL)

/* the weight of a roll in 36: 1 a double, 2 a mixed roll; the rolls of a mask counted so. The doubles of a mask
 * (bits 7 apart) are counted by a multiply by DOUBLE_BITS, which adds them all up at bit 35 (the other sums it
 * makes below bit 35 are at most 6 each, 7 bits apart: no carry reaches it) */
static inline int mask_count(uint64_t mask)
{
    return mask ? 2 * mask_rolls(mask) - (int)((((mask & DOUBLE_BITS) * DOUBLE_BITS) >> 35) & 7) : 0;
}

/* counts._back: the side's highest occupied point (25 = bar), 0 when all are off */
static int back_point(const long *side)
{
    for (int p = BAR_POINT; p > 0; p--)
        if (side[p])
            return p;
    return 0;
}

/* counts.is_contact */
static int in_contact(const long *player, const long *opponent)
{
    int back = back_point(player), other = back_point(opponent);
    return back && other && back + other > 24;
}

/* the lowest point of a mask of points (bit p: point p), the mask not 0 */
static inline int lowest_point(uint32_t mask)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(mask);
#else
    int p = 0;
    while (!(mask & 1)) {
        mask >>= 1;
        p++;
    }
    return p;
#endif
}

/* A position's masks of points for the chances below (bit p: point p in the mover's numbering): mine (the
 * mover's points 1..24 that hold a checker, and bit 25 the bar), multi (those of 1..24 that hold two or more);
 * the opponent's in its own numbering, theirs (1..25: its checkers, bit 25 its bar) and held (1..24: two or
 * more), which are also the points the mover enters on (bit x: the point die x enters on, 25 - x in the
 * mover's numbering); and, made by hitting_mask only where a blot is in contact, open (1..24: the opponent
 * has fewer than 2 there, a checker may land) and blots (1..24: the opponent's 1) in the mover's numbering.
 * They are made from each side's own masks (side_masks), which a run of plays makes again only for a side
 * whose checkers moved. The checks walk these where diceshots walks the checkers and counts.is_contact the
 * points: the same decisions (each hit found is settled as there, and the answer does not depend on the
 * order). */
typedef struct {
    uint32_t occupied, multi;   /* a side's points 1..25 (its own numbering) that hold a checker, two or more */
} SideMasks;   /* of a side's counts, each 0..15 (fair_sides) */

typedef struct {
    const long *player;
    uint32_t mine, multi, theirs, held, open, blots;
} Masks;

#define BOARD_MASK ((uint32_t)0x1FFFFFE)   /* points 1..24 */

/* eight points at a time: each count (0..15) a byte, whose high bit after adding 0x7F says it is not 0 and after
 * adding 0x7E that it is 2 or more (no carry into the next byte); the eight high bits then gathered into eight bits
 * by a multiply (bit 8i lands on bit 56 + i, nothing else at or above bit 56) */
#define BYTES_HIGH 0x8080808080808080ULL
#define GATHER_BYTES 0x0102040810204080ULL

#if defined(__SSE2__) && defined(__LP64__)   /* a long of 64 bits, as the packs below read them */
#include <emmintrin.h>
/* with SSE2 (every x86-64 processor): the 24 counts of points 1..24 packed into 24 bytes by signed saturating
 * packs (a count, 0..15, is the low half of its 64-bit long, the high half 0: two longs read as 32-bit lanes
 * [v, 0, w, 0] pack to 16-bit [v, 0, w, 0], which read as 32-bit lanes are [v, w]), then compared with 0 and 1 a
 * byte at a time, the bytes' high bits gathered by movemask: some 40 instructions for what the loop below
 * takes some 150 */
static inline __m128i counts_as_words(const long *q)   /* eight counts from q, as 16-bit lanes */
{
    __m128i a = _mm_packs_epi32(_mm_loadu_si128((const __m128i *)q), _mm_loadu_si128((const __m128i *)(q + 2)));
    __m128i b = _mm_packs_epi32(_mm_loadu_si128((const __m128i *)(q + 4)), _mm_loadu_si128((const __m128i *)(q + 6)));
    return _mm_packs_epi32(a, b);
}

static void side_masks(const long *side, SideMasks *out)
{
    __m128i low = _mm_packs_epi16(counts_as_words(side + 1), counts_as_words(side + 9));   /* points 1..16 */
    __m128i high = _mm_packs_epi16(counts_as_words(side + 17), _mm_setzero_si128());       /* points 17..24 */
    __m128i zero = _mm_setzero_si128(), one = _mm_set1_epi8(1);
    uint32_t occupied = (uint32_t)_mm_movemask_epi8(_mm_cmpgt_epi8(low, zero)) |
                        (uint32_t)_mm_movemask_epi8(_mm_cmpgt_epi8(high, zero)) << 16;
    uint32_t multi = (uint32_t)_mm_movemask_epi8(_mm_cmpgt_epi8(low, one)) |
                     (uint32_t)_mm_movemask_epi8(_mm_cmpgt_epi8(high, one)) << 16;
    out->occupied = occupied << 1 | (uint32_t)(side[BAR_POINT] != 0) << BAR_POINT;
    out->multi = multi << 1 | (uint32_t)(side[BAR_POINT] >= 2) << BAR_POINT;
}
#else
static void side_masks(const long *side, SideMasks *out)
{
    uint32_t occupied = 0, multi = 0;
    for (int p = 1; p < BAR_POINT; p += 8) {   /* points 1..24, eight at a time (the loads unrolled) */
        const long *q = side + p;
        uint64_t bytes = (uint64_t)q[0] | (uint64_t)q[1] << 8 | (uint64_t)q[2] << 16 | (uint64_t)q[3] << 24 |
                         (uint64_t)q[4] << 32 | (uint64_t)q[5] << 40 | (uint64_t)q[6] << 48 | (uint64_t)q[7] << 56;
        uint64_t nonzero = ((bytes + 0x7F7F7F7F7F7F7F7FULL) & BYTES_HIGH) >> 7;
        uint64_t two = ((bytes + 0x7E7E7E7E7E7E7E7EULL) & BYTES_HIGH) >> 7;
        occupied |= (uint32_t)((nonzero * GATHER_BYTES) >> 56) << p;
        multi |= (uint32_t)((two * GATHER_BYTES) >> 56) << p;
    }
    occupied |= (uint32_t)(side[BAR_POINT] != 0) << BAR_POINT;
    multi |= (uint32_t)(side[BAR_POINT] >= 2) << BAR_POINT;
    out->occupied = occupied;
    out->multi = multi;
}
#endif

static void masks_of(const long *player, const SideMasks *mover, const SideMasks *other, Masks *m)
{
    m->player = player;
    m->mine = mover->occupied;
    m->multi = mover->multi & BOARD_MASK;
    m->theirs = other->occupied;
    m->held = other->multi & BOARD_MASK;
}

/* the highest point of a mask of points (bit p: point p), the mask not 0 */
static inline int highest_point(uint32_t mask)
{
#if defined(__GNUC__) || defined(__clang__)
    return 31 - __builtin_clz(mask);
#else
    int p = 31;
    while (!(mask >> p))
        p--;
    return p;
#endif
}

/* counts.is_contact: the mover's highest point (25 the bar) and the opponent's, in their numbering, pass each other */
static int masks_in_contact(const Masks *m)
{
    if (!m->mine || !m->theirs)
        return 0;
    return highest_point(m->mine) + highest_point(m->theirs) > 24;
}

/* the mover's points 1..24 that hold a checker once one moved from s to t (s 25: the bar; t 0: borne off; s and
 * t 0: as the checkers stand) */
static inline uint32_t mine_after(const Masks *m, int s, int t)
{
    uint32_t mine = m->mine & BOARD_MASK;
    if (s >= 1 && s <= 24 && m->player[s] == 1)
        mine &= ~((uint32_t)1 << s);
    if (t >= 1)
        mine |= (uint32_t)1 << t;
    return mine;
}

/* diceshots._plays_after: a checker on a point from which die y lands on an open point, else a bear-off (every
 * checker home, and one on point y or none above it) */
static int plays_after(const Masks *m, int s, int t, int y)
{
    uint32_t mine = mine_after(m, s, t);
    if (mine & (m->open << y))
        return 1;
    return mine && !(mine & ~(uint32_t)0x7E) &&
           (m->player[y] - (y == s) + (y == t) > 0 || highest_point(mine) < y);
}

/* diceshots._double_hits: whether a checker of start reaches a blot in at most steps steps of a, each point on the
 * way open (reach: where the checkers stand after k steps) */
static inline int double_hits(const Masks *m, uint32_t start, int a, int steps)
{
    uint32_t reach = start;
    for (int k = 0; k < steps && reach; k++) {
        reach = (reach >> a) & m->open;
        if (reach & m->blots)
            return 1;
    }
    return 0;
}

/* diceshots._entering_hits of a mixed roll with one checker of the mover on the bar: 1 or 0 (hitting_mask settles
 * the doubles, and the mixed rolls with two checkers or more on the bar, in bulk) */
static int entering_hits(const Masks *m, int a, int b)
{
    uint32_t board = m->mine & BOARD_MASK;
    int undecided = 0;
    for (int order = 0; order < 2; order++) {
        int x = order ? b : a, y = order ? a : b;
        int entry = 25 - x;
        if (!((m->open >> entry) & 1))
            continue;
        if ((m->blots >> entry) & 1) {
            if (plays_after(m, BAR_POINT, entry, y))
                return 1;
            undecided = 1;
        }
        if (entry - y >= 1 && (m->blots >> (entry - y)) & 1)
            return 1;
        if ((board >> y) & m->blots)
            return 1;
    }
    if (!undecided)
        return 0;
    /* only a hit entering that leaves the other die unplayable: legal when no play takes both dice, and then the
     * higher die enters if it can, else the lower */
    for (int order = 0; order < 2; order++) {
        int x = order ? b : a, y = order ? a : b;
        if ((m->open >> (25 - x)) & 1 && plays_after(m, BAR_POINT, 25 - x, y))
            return 0;
    }
    int high = a > b ? a : b, low = a > b ? b : a;
    int die = (m->open >> (25 - high)) & 1 ? high : low;
    return (int)((m->blots >> (25 - die)) & 1);
}

/* diceshots._mixed_hits: 1, 0 or NO_ANSWER. landed: where die x takes each checker (from t + x); a checker that
 * landed on an empty point hits with die y from there, one that hit must leave die y playable */
static int mixed_hits(const Masks *m, int a, int b)
{
    int undecided = 0;
    for (int order = 0; order < 2; order++) {
        int x = order ? b : a, y = order ? a : b;
        uint32_t landed = (m->mine >> x) & m->open;
        if (((landed & ~m->blots) >> y) & m->blots)
            return 1;
        for (uint32_t hit = landed & m->blots; hit; hit &= hit - 1) {
            int t = lowest_point(hit);
            if (plays_after(m, t + x, t, y))
                return 1;
            undecided = 1;
        }
    }
    return undecided ? NO_ANSWER : 0;
}

/* diceshots._one_die_hits: 1 or 0 (a mixed roll whose hits found leave the other die unplayable; no checker of
 * the mover on the bar) */
static int one_die_hits(const Masks *m, int a, int b)
{
    uint32_t board = m->mine & BOARD_MASK;
    int home = !(board & ~(uint32_t)0x7E);
    for (int order = 0; order < 2; order++) {
        int x = order ? b : a, y = order ? a : b;
        for (uint32_t starts = board; starts; starts &= starts - 1) {
            int s = lowest_point(starts), t = s - x;
            if (t >= 1) {
                if (!((m->open >> t) & 1))
                    continue;
            } else {
                /* a checker above s: a die too big for s cannot bear it off */
                int above = t < 0 && (board & ((uint32_t)0x7E & ~(((uint32_t)2 << s) - 1)));
                if (!home || above)
                    continue;
                t = 0;   /* borne off */
            }
            if (plays_after(m, s, t, y))
                return 0;
        }
    }
    int high = a > b ? a : b, low = a > b ? b : a;
    int die = plays_after(m, 0, 0, high) ? high : low;
    return ((board >> die) & m->blots) != 0;
}

/* the points a double's checker steps span (diceshots._REACH): 1 to 4 steps of a, as bits, for a = 1..6 */
#define REACH_DOUBLE(a) (((uint32_t)1 << (a)) | ((uint32_t)1 << 2 * (a)) | ((uint32_t)1 << 3 * (a)) | ((uint32_t)1 << 4 * (a)))
static const uint32_t double_reach[7] = {0, REACH_DOUBLE(1), REACH_DOUBLE(2), REACH_DOUBLE(3), REACH_DOUBLE(4),
                                         REACH_DOUBLE(5), REACH_DOUBLE(6)};

/* the lowest bit of a mask of roll_bit, the mask not 0 */
static inline int lowest_roll(uint64_t mask)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(mask);
#else
    uint32_t low = (uint32_t)mask;
    return low ? lowest_point(low) : 32 + lowest_point((uint32_t)(mask >> 32));
#endif
}

/* the dice of roll_bit k (k = (high - 1) * 6 + low - 1): high, low */
static const uint8_t roll_high[36] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3,
                                      4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6};
static const uint8_t roll_low[36] = {1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6,
                                     1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6};

/* bit roll_bit of each mixed roll with a die of a set of dice (bits 1..6 of the index: the dice), of each mixed
 * roll whose dice add up to one of a set of sums (bit i of the index: the sum 3 + i, 3..11): made once */
static uint64_t mixed_with[128];
static uint64_t mixed_summing[512];
static uint64_t doubles_of[128];   /* and of each double of a set of dice (bits 1..6) */
static int mixed_made;

static void make_mixed(void)
{
    uint64_t with[7] = {0}, summing[9] = {0};   /* the mixed rolls with die d; whose dice add up to 3 + i */
    for (int a = 2; a <= 6; a++)
        for (int b = 1; b < a; b++) {
            with[a] |= roll_bit(a, b);
            with[b] |= roll_bit(a, b);
            summing[a + b - 3] |= roll_bit(a, b);
        }
    for (int dice = 1; dice < 128; dice++)   /* a set's: the set less its lowest die's, and that die's */
        mixed_with[dice] = mixed_with[dice & (dice - 1)] | (dice & 1 ? 0 : with[lowest_point((uint32_t)dice)]);
    for (int sums = 1; sums < 512; sums++)
        mixed_summing[sums] = mixed_summing[sums & (sums - 1)] | summing[lowest_point((uint32_t)sums)];
    for (int dice = 2; dice < 128; dice += 2) {
        int a = lowest_point((uint32_t)dice);
        doubles_of[dice] = doubles_of[dice & (dice - 1)] | roll_bit(a, a);
    }
    mixed_made = 1;
}

/* the mixed rolls of die x with a die of the set ys (bits 1..6), x left out of ys */
static inline uint64_t mixed_pairs(int x, uint32_t ys)
{
    return mixed_with[(uint32_t)1 << x] & mixed_with[ys & ~((uint32_t)1 << x) & 0x7E];
}

/* bit p to bit 25 - p (p 0..25) of two masks at once, one in each half: a side's points in the other side's
 * numbering. The bytes' order reversed, then the bits in each byte: bit j to bit 63 - j, each half's masks now
 * in the other half, moved back by the shifts */
static inline uint64_t pair_other_numbering(uint64_t mask)
{
#if defined(__GNUC__) || defined(__clang__)
    mask = __builtin_bswap64(mask);
#else
    mask = ((mask >> 8) & 0x00FF00FF00FF00FFULL) | ((mask & 0x00FF00FF00FF00FFULL) << 8);
    mask = ((mask >> 16) & 0x0000FFFF0000FFFFULL) | ((mask & 0x0000FFFF0000FFFFULL) << 16);
    mask = (mask >> 32) | (mask << 32);
#endif
    mask = ((mask >> 1) & 0x5555555555555555ULL) | ((mask & 0x5555555555555555ULL) << 1);
    mask = ((mask >> 2) & 0x3333333333333333ULL) | ((mask & 0x3333333333333333ULL) << 2);
    mask = ((mask >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((mask & 0x0F0F0F0F0F0F0F0FULL) << 4);   /* j to 63 - j */
    /* a low half's p is now at 63 - p, a high half's 32 + p at 31 - p: 25 - p is 38 below and 6 below */
    return ((mask >> 6) & 0x3FFFFFF) << 32 | ((mask >> 38) & 0x3FFFFFF);
}

/* diceshots.hitting_rolls as a mask of roll_bit (it makes m's open and blots).
 * The 21 rolls are settled in bulk from masks of points made once (spans: the distances from a checker down to
 * a blot; the points from which each die takes a checker of the board to an open point), a mixed roll x-y as
 * hitting where one of the plays diceshots finds hitting is there for sure:
 *   - die x hits from the board (a span of x) and die y is playable after it (diceshots._plays_after, shown
 *     without the bear-off: two checkers or more can play y (diceshots' twice), or the one point that can is
 *     not one a hit of x leaves, or the hitter goes on with y from where it hit);
 *   - a checker that die x takes to an empty point hits with die y from there (both dice played): looked at
 *     only for the rolls whose dice add up to a span and neither of which hits directly;
 *   - with one checker on the bar: die x enters, and die y hits from the board or from the entry point; or
 *     die x enters on a blot and die y is playable after it (a checker of the board plays y, or the entered
 *     one does: exactly diceshots._plays_after, as a checker entered is outside the home board);
 *   - with two or more on the bar: a die enters on a blot;
 * and as not hitting where no die of it hits directly (from the board, or entering with one checker on the
 * bar) and no such play was found: diceshots then finds no hit, and no undecided one. The rest (a die hits
 * and the other die was not shown playable after it) are decided roll by roll as diceshots decides them
 * (mixed_hits, one_die_hits, entering_hits). A double hits where a checker's steps reach a blot (double_hits,
 * after entering every checker of the bar). tests/test_dice_shots.py compares the C chances with the Python
 * ones on generated positions, and on its hand-made positions for each of these. */
static uint64_t hitting_mask(Masks *m)
{
    uint64_t pair = pair_other_numbering((uint64_t)m->held << 32 | (m->theirs & BOARD_MASK));
    uint32_t open = ~(uint32_t)(pair >> 32) & BOARD_MASK, blots = (uint32_t)pair & open;
    m->open = open;
    m->blots = blots;
    long bar = m->player[BAR_POINT];
    uint32_t board = m->mine & BOARD_MASK, spans = 0;   /* bit d: a checker of the board d pips above a blot */
    for (uint32_t b = blots; b; b &= b - 1)
        spans |= board >> lowest_point(b);
    /* with the bar: its spans are the blots in the opponent's numbering (25 - b) */
    uint32_t blots_theirs = m->theirs & ~m->held & BOARD_MASK, reach = spans | (bar ? blots_theirs : 0);
    if (!reach)
        return 0;
    if (!mixed_made)
        make_mixed();
    uint64_t found = 0, undecided = 0;
    uint32_t hitters = spans & 0x7E;   /* bits 1..6: the dice that take a checker of the board onto a blot */
    uint32_t open_theirs = ~m->held & BOARD_MASK;   /* open in the opponent's numbering (bit q: point 25 - q) */
    uint32_t enters = open_theirs & 0x7E, enters_hitting = m->theirs & enters;   /* bits 1..6, with the bar */
    if (bar >= 2) {
        found = mixed_with[enters_hitting];
    } else if (hitters || bar) {
        uint32_t movable = 0, twice = 0;   /* bits 1..6: the dice a checker can play; two checkers or more */
        uint32_t moves[7];                 /* moves[d]: the points of the board from which die d can move */
#define DIE_MOVES(d)                                                                         \
        do {                                                                                     \
            uint32_t from = board & (open << (d));                                               \
            moves[d] = from;                                                                     \
            movable |= (uint32_t)(from != 0) << (d);                                             \
            twice |= (uint32_t)(((from & (from - 1)) | (from & m->multi)) != 0) << (d);          \
        } while (0)
        DIE_MOVES(1); DIE_MOVES(2); DIE_MOVES(3); DIE_MOVES(4); DIE_MOVES(5); DIE_MOVES(6);   /* constant shifts */
#undef DIE_MOVES
        uint32_t solo = movable & ~twice;
        if (!bar) {
            for (uint32_t h = hitters; h; h &= h - 1) {
                int x = lowest_point(h);
                uint32_t hit = (board >> x) & blots, left = hit << x, lost = 0, after = 0;
                for (uint32_t t = hit; t; t &= t - 1)   /* bit y: the hitter goes on with y (t - y open) */
                    after |= open_theirs >> (25 - lowest_point(t));
                for (uint32_t y = solo; y; y &= y - 1)   /* the one checker that plays y is the one that hit */
                    if (!(moves[lowest_point(y)] & ~left))
                        lost |= y & -y;
                found |= mixed_pairs(x, (movable & ~lost) | after);
            }
            undecided = mixed_with[hitters];
        } else {
            for (uint32_t e = enters; e; e &= e - 1) {
                int x = lowest_point(e);
                /* bit y: die y hits from the board, or from the entry point (25 - x - y: the opponent's x + y) */
                uint32_t ys = hitters | blots_theirs >> x;
                if ((enters_hitting >> x) & 1) {   /* entered on a blot: die y playable from the board or from there */
                    ys |= movable | open_theirs >> x;
                    undecided |= mixed_with[(uint32_t)1 << x];
                }
                found |= mixed_pairs(x, ys);
            }
        }
    }
    if (!bar) {   /* the mixed rolls that hit with one checker's two dice, neither die hitting directly */
        uint32_t empty = open & ~blots;
        for (uint64_t r = mixed_summing[(spans >> 3) & 0x1FF] & ~mixed_with[hitters]; r; r &= r - 1) {
            int k = lowest_roll(r), x = roll_high[k], y = roll_low[k];
            if (((((board >> x) & empty) >> y) | (((board >> y) & empty) >> x)) & blots)
                found |= r & -r;
        }
    }
    undecided &= ~found;
    uint32_t doubles = 0;   /* bits 1..6: the doubles whose steps reach a blot */
    for (int a = 1; a <= 6; a++)
        doubles |= (uint32_t)((reach & double_reach[a]) != 0) << a;
    if (bar) {   /* diceshots._entering_hits: a double enters on a blot, or cannot enter, or enters every checker */
        found |= doubles_of[doubles & enters_hitting];
        doubles &= bar < 4 ? enters & ~enters_hitting : 0;
    }
    for (; doubles; doubles &= doubles - 1) {   /* every checker of the bar entered, the steps left */
        int a = lowest_point(doubles);
        if (double_hits(m, bar ? board | (uint32_t)1 << (25 - a) : board, a, 4 - (int)bar))
            found |= roll_bit(a, a);
    }
    for (; undecided; undecided &= undecided - 1) {   /* mixed rolls */
        int k = lowest_roll(undecided), a = roll_high[k], b = roll_low[k];
        int hits = bar ? entering_hits(m, a, b) : mixed_hits(m, a, b);
        if (hits == NO_ANSWER)
            hits = one_die_hits(m, a, b);
        if (hits)
            found |= roll_bit(a, b);
    }
    return found;
}

/* dice.finishing_rolls as a mask of roll_bit: 0, or -1 with an exception (none now: the rolls are worked out
 * from where the checkers stand, every point on their way open) */
static int finishing_mask(const long *player, const long *opponent, uint64_t *mask)
{
    *mask = 0;
    long left = MAX_COUNT - player[0];
    if (!left || left > 4)
        return 0;
    for (int p = 7; p <= BAR_POINT; p++)
        if (player[p])
            return 0;
    uint32_t held = 0;   /* the points 1..6 of the mover's home board the opponent holds (its 24..19) */
    for (int q = 19; q <= 24; q++)
        held |= (uint32_t)(opponent[q] >= 2) << (25 - q);
    int points[4], n = 0;
    for (int p = 6; p >= 1; p--)
        for (long k = 0; k < player[p] && n < 4; k++)
            points[n++] = p;
    for (int a = 6; a >= 1; a--)
        for (int b = a; b >= 1; b--) {
            int done;
            if (a == b) {
                int need = 0;
                uint32_t way = 0;   /* the points the checkers land on before they are off */
                for (int i = 0; i < n; i++) {
                    need += (points[i] + a - 1) / a;
                    for (int q = points[i] - a; q >= 1; q -= a)
                        way |= (uint32_t)1 << q;
                }
                done = need <= 4 && !(way & held);
            } else if (left == 1) {
                int p = points[0];
                done = p <= a || (p <= a + b && (!((held >> (p - a)) & 1) || !((held >> (p - b)) & 1)));
            } else {
                done = left == 2 && points[0] <= a && points[1] <= b;
            }
            if (done)
                *mask |= roll_bit(a, b);
        }
    return 0;
}

/* dice._bears_off_with on masks: whether die bears off a checker of the player whose points 1..25 that hold a
 * checker are mine, and count the checkers on point die: every checker home, and one on point die or none above it */
static inline int bears_off_with(uint32_t mine, long count, int die)
{
    return mine && !(mine & ~(uint32_t)0x7E) && (count > 0 || highest_point(mine) < die);
}

/* dice.bears_one_off: whether a legal play of high-low bears off a checker of the player, in a race (no contact);
 * mine the player's points 1..25 that hold a checker */
static int bears_one_off(const long *player, uint32_t mine, int high, int low)
{
    uint32_t outside = mine & ~(uint32_t)0x7F;   /* points 7..25 */
    if (high == low) {
        int a = high;
        long homing = 0, fewest = 1;   /* the steps to bring every checker home; every checker below a, then off */
        for (uint32_t o = outside; o; o &= o - 1) {
            int p = lowest_point(o);
            homing += player[p] * ((p - 6 + a - 1) / a);
        }
        for (uint32_t o = mine & ~(((uint32_t)1 << a) - 1); o; o &= o - 1) {
            int p = lowest_point(o);
            fewest += player[p] * (p / a);
        }
        for (int q = a; q <= BAR_POINT; q += a)   /* a checker on q = m * a: m steps, the others brought home */
            if (player[q]) {
                long steps = homing - (q > 6 ? (q - 6 + a - 1) / a : 0) + q / a;
                if (steps < fewest)
                    fewest = steps;
            }
        return fewest <= 4;
    }
    if (outside && ((outside & (outside - 1)) || player[lowest_point(outside)] > 1))
        return 0;   /* two checkers outside: the first die brings one home at most, the second bears off none */
    for (int order = 0; order < 2; order++) {
        int x = order ? low : high, y = order ? high : low;
        if (bears_off_with(mine, player[x], x))
            return 1;
        /* a checker moved from p to t = p - x, then die y; with one outside, only that one can bring all home */
        for (uint32_t from = outside ? outside : mine & ~(((uint32_t)2 << x) - 1); from; from &= from - 1) {
            int p = lowest_point(from), t = p - x;
            uint32_t after = (player[p] == 1 ? mine & ~((uint32_t)1 << p) : mine) | (uint32_t)1 << t;
            if (bears_off_with(after, player[y] - (y == p) + (y == t), y))
                return 1;
        }
    }
    return 0;
}

/* dice.saving_rolls as a mask of roll_bit, own_off the checkers a side of the variant counts off from the start
 * (core.value.possible_wins: no gammon once the player has more off): 0, or -1 with an exception */
static int saving_mask(const long *player, const long *opponent, long own_off, uint64_t *mask)
{
    *mask = 0;
    if (MAX_COUNT - opponent[0] > 4 || in_contact(player, opponent) || player[0] > own_off)
        return 0;
    uint64_t theirs;
    if (finishing_mask(opponent, player, &theirs) < 0)
        return -1;
    if (mask_rolls(theirs) < 21)
        return 0;
    uint32_t mine = 0;
    for (int p = 1; p <= BAR_POINT; p++)
        mine |= (uint32_t)(player[p] != 0) << p;
    for (int a = 6; a >= 1; a--)
        for (int b = a; b >= 1; b--) {
            if (bears_one_off(player, mine, a, b))
                *mask |= roll_bit(a, b);
        }
    return 0;
}

/* a chance's bin: its count in 36, 0 for a sure thing */
static inline int chance_bin(int count)
{
    return count < 36 ? count : 0;
}

/* dice.roll_chances of the roll a-b (either order) on the mover's and the opponent's own
 * counts (each 0..15), own_off the variant's (saving_mask): facts[0..8) as the Python tuple. 0, or -1 with an
 * exception */
static int chances_of_roll(const long *player, const long *opponent, const SideMasks *mover, const SideMasks *other,
                           int a, int b, long own_off, uint8_t *facts)
{
    int high = a > b ? a : b, low = a > b ? b : a;
    uint64_t roll = roll_bit(high, low);
    int entering = 0;
    if (player[BAR_POINT]) {
        int held = 0;
        for (int p = 1; p <= 6; p++)
            held += opponent[p] >= 2;
        entering = 36 - held * held;
        entering = entering > 0 && entering < 36 ? entering : 0;
    }
    facts[0] = (uint8_t)entering;
    facts[1] = entering && (opponent[high] < 2 || opponent[low] < 2);
    uint64_t hitting = 0, finishing = 0, saving = 0;
    Masks m;
    masks_of(player, mover, other, &m);
    if ((m.theirs & ~m.held & BOARD_MASK) && masks_in_contact(&m))
        hitting = hitting_mask(&m);
    int hit_count = chance_bin(mask_count(hitting));
    facts[2] = (uint8_t)hit_count;
    facts[3] = hit_count && (hitting & roll) != 0;
    if (!(m.mine & ~(uint32_t)0x7E) && finishing_mask(player, opponent, &finishing) < 0)   /* every checker home */
        return -1;
    int finishing_count = chance_bin(mask_count(finishing));
    facts[4] = (uint8_t)finishing_count;
    facts[5] = finishing_count && (finishing & roll) != 0;
    if (player[0] <= own_off && saving_mask(player, opponent, own_off, &saving) < 0)
        return -1;
    int saving_count = chance_bin(mask_count(saving));
    facts[6] = (uint8_t)saving_count;
    facts[7] = saving_count && (saving & roll) != 0;
    return 0;
}

/* the checkers a side of the variant counts off from the start (core.rules.Variation.off_at_start), 0..14:
 * 0, or -1 with an exception */
static int read_own_off(PyObject *value, long *own_off)
{
    long n = PyLong_CheckExact(value) ? PyLong_AsLong(value) : -1;
    if (n < 0 || n >= MAX_COUNT) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "own_off: the checkers a side counts off from the start, 0 to 14");
        return -1;
    }
    *own_off = n;
    return 0;
}

/* both sides counts of a position (0..15 each, at most 15 a side): 1, else 0 */
static int fair_sides(const long *player, const long *opponent)
{
    long mine = 0, theirs = 0;
    for (int p = 0; p < SIDE; p++) {
        if (player[p] < 0 || player[p] > MAX_COUNT || opponent[p] < 0 || opponent[p] > MAX_COUNT)
            return 0;
        mine += player[p];
        theirs += opponent[p];
    }
    return mine == MAX_COUNT && theirs == MAX_COUNT;
}

static PyObject *py_roll_chances(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4 && nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "roll_chances(player, opponent, a, b[, own_off]) takes 4 or 5 arguments");
        return NULL;
    }
    long player[SIDE], opponent[SIDE], own_off = 0;
    int a, b;
    if (read_counts(args[0], player) < 0 || read_counts(args[1], opponent) < 0 || !fair_sides(player, opponent))
        Py_RETURN_NOTIMPLEMENTED;
    if (read_die(args[2], &a) < 0 || read_die(args[3], &b) < 0 || (nargs == 5 && read_own_off(args[4], &own_off) < 0)) {
        PyErr_Clear();
        Py_RETURN_NOTIMPLEMENTED;
    }
    uint8_t facts[8];
    SideMasks mover, other;
    side_masks(player, &mover);
    side_masks(opponent, &other);
    if (chances_of_roll(player, opponent, &mover, &other, a, b, own_off, facts) < 0)
        return NULL;
    return Py_BuildValue("(iiiiiiii)", facts[0], facts[1], facts[2], facts[3], facts[4], facts[5], facts[6], facts[7]);
}

#define ROLL_FACTS 11   /* a roll's facts in dice_after_plays: the mover, the dice as written, roll_chances' 8 */
#define OPENING_ROLL 2  /* in a roll's mover: a game's first roll (DiceTally._opening), no chances */

/* ---- count_rolls: the dice tally's counts of rolls, in C ----------------------------
 * Fenced mirror of bgcli.judging.dice.DiceTally._rolled (and of DiceTally._opening for a roll whose
 * mover carries OPENING_ROLL), for each roll's facts (dice_after_plays') in turn: count_roll, the one
 * C copy of the counts, which dice_after_plays (given a tally) calls, and count_rolls, the tests'
 * door to it. tests/test_dice_runs.py::test_the_rolls_counted_in_c_are_the_python_counts compares
 * count_rolls with the two on generated rolls and states, and
 * test_the_run_of_plays_in_c_counts_its_rolls_as_the_python_tally the runs (dice_after_plays
 * counting in place) with them on generated games. count_rolls(facts, state, counts): each an array
 * of 64-bit ints (array('q')) read and written in place: state DiceTally._state, _rolled's sequence
 * state (6) then the two counts of mixed rolls written high die first and low die first
 * (dice._WRITTEN); counts a match's, DiceTally._counts, each side's laid out as dice._PARTS (the 14
 * parts below first, their sizes in order, then the opening rolls), the first side's then the
 * second's; it answers the kinds of the rolls, as bytes (a game's kinds: its marks and the match's
 * fingerprint, dice.game_marks). */

enum { KINDS_AT = 0, FACES_AT = 21, ORDER_AT = 27, PAIRS_AT = 63, AFTER_AT = 504, OWN_AFTER_AT = 506, CHANCES_AT = 508,
       CHANCE_BINS = 37, OPENING_AT = CHANCES_AT + 8 * CHANCE_BINS, COUNTED = OPENING_AT + 21, STATE_SIZE = 8 };

/* what the counts of rolls add to, in place: a tally's state and written counts, and a match's counts */
typedef struct {
    long long *counts[2], *state, *written;
    Py_buffer views[2];
} Tally;

/* the read-write buffer of an array('q') of n ints: 1, or 0 (no exception, nothing held) */
static int ints_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t n)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        return 0;
    }
    if (view->itemsize == (Py_ssize_t)sizeof(long long) && view->format != NULL && strcmp(view->format, "q") == 0 &&
        view->len == (Py_ssize_t)sizeof(long long) * n)
        return 1;
    PyBuffer_Release(view);
    return 0;
}

/* a tally from its state and a match's counts: 1, or 0 with a TypeError (nothing held) */
static int tally_open(PyObject *state, PyObject *counts, Tally *t, const char *what)
{
    if (ints_buffer(state, &t->views[0], STATE_SIZE)) {
        if (ints_buffer(counts, &t->views[1], 2 * COUNTED)) {
            t->state = (long long *)t->views[0].buf;
            t->written = t->state + 6;
            t->counts[0] = (long long *)t->views[1].buf;
            t->counts[1] = t->counts[0] + COUNTED;
            return 1;
        }
        PyBuffer_Release(&t->views[0]);
    }
    PyErr_Format(PyExc_TypeError, "%s: a state of %d ints and a match's counts of %d, each an array('q')", what,
                 (int)STATE_SIZE, (int)(2 * COUNTED));
    return 0;
}

static void tally_release(Tally *t)
{
    PyBuffer_Release(&t->views[0]);
    PyBuffer_Release(&t->views[1]);
}

/* whether the sequence state is one count_roll reads (the kind before: -1, none, or 0..20) */
static inline int state_fair(const long long *state)
{
    return state[0] >= -1 && state[0] <= 20;
}

/* a roll's kind (dice.KINDS: 11, 21, 22, 31, ...) by its dice in either order, 1..6 */
static const uint8_t KIND_OF[7][7] = {
    {0}, {0, 0, 1, 3, 6, 10, 15}, {0, 1, 2, 4, 7, 11, 16}, {0, 3, 4, 5, 8, 12, 17}, {0, 6, 7, 8, 9, 13, 18},
    {0, 10, 11, 12, 13, 14, 19}, {0, 15, 16, 17, 18, 19, 20}};

/* one roll's facts (the mover, the dice as written, roll_chances' 8) counted into the tally, as
 * DiceTally._rolled counts them (DiceTally._opening for a mover with OPENING_ROLL); the facts in range
 * and the state fair. Its kind */
static inline int count_roll(const uint8_t *f, Tally *t)
{
    int side = f[0] & 1, a = f[1], b = f[2];
    long kind = KIND_OF[a][b];
    int dbl = a == b;
    long long *state = t->state;
    long long *counts = t->counts[side];
    if (f[0] & OPENING_ROLL) {   /* DiceTally._opening: counted apart, nothing before it for what follows */
        counts[OPENING_AT + kind]++;
        return (int)kind;
    }
    t->written[a < b] += !dbl;
    counts[KINDS_AT + kind]++;
    counts[FACES_AT + a - 1]++;
    counts[FACES_AT + b - 1]++;
    counts[ORDER_AT + (a - 1) * 6 + b - 1]++;
    if (state[0] >= 0)
        counts[PAIRS_AT + state[0] * 21 + kind]++;
    if (state[1]) {
        counts[AFTER_AT]++;
        counts[AFTER_AT + 1] += dbl;
    }
    if (state[4 + side] && state[2 + side]) {
        counts[OWN_AFTER_AT]++;
        counts[OWN_AFTER_AT + 1] += dbl;
    }
    state[0] = kind;
    state[1] = dbl;
    state[4 + side] = 1;
    state[2 + side] = dbl;
    for (int c = 0; c < 4; c++) {   /* each chance by how many of the 36 rolls succeed there */
        int count = f[3 + 2 * c];
        if (count) {
            counts[CHANCES_AT + 2 * c * CHANCE_BINS + count]++;
            counts[CHANCES_AT + (2 * c + 1) * CHANCE_BINS + count] += f[4 + 2 * c];
        }
    }
    return (int)kind;
}

static PyObject *py_count_rolls(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    Tally t;
    if (nargs != 3 || !PyBytes_CheckExact(args[0]) || PyBytes_GET_SIZE(args[0]) % ROLL_FACTS != 0) {
        PyErr_SetString(PyExc_TypeError, "count_rolls(facts, state, counts): facts of whole rolls, a state and a "
                                         "match's counts (array('q'))");
        return NULL;
    }
    if (!tally_open(args[1], args[2], &t, "count_rolls(facts, state, counts)"))
        return NULL;
    const uint8_t *facts = (const uint8_t *)PyBytes_AS_STRING(args[0]);
    Py_ssize_t rolls = PyBytes_GET_SIZE(args[0]) / ROLL_FACTS;
    for (Py_ssize_t r = 0; r < rolls; r++) {
        const uint8_t *f = facts + r * ROLL_FACTS;
        int bad = f[0] > (1 | OPENING_ROLL) || f[1] < 1 || f[1] > 6 || f[2] < 1 || f[2] > 6 || !state_fair(t.state);
        for (int c = 0; c < 4; c++)
            bad |= f[3 + 2 * c] > 36;
        if (bad) {
            tally_release(&t);
            PyErr_SetString(PyExc_ValueError, "count_rolls: a roll's facts or the state out of range");
            return NULL;
        }
    }
    PyObject *kinds = PyBytes_FromStringAndSize(NULL, rolls);
    if (kinds == NULL) {
        tally_release(&t);
        return NULL;
    }
    char *kind_out = PyBytes_AS_STRING(kinds);
    for (Py_ssize_t r = 0; r < rolls; r++)
        kind_out[r] = (char)count_roll(facts + r * ROLL_FACTS, &t);
    tally_release(&t);
    return kinds;
}

/* the sides after a roll Python settled (plays.settled_roll's answer: the mover's side, then the
 * opponent's) into after, in first and second order: 1, or 0 (no exception) when it is not two fair sides */
static int read_settled(PyObject *settled, long side, long after[2][SIDE])
{
    if (!PyTuple_CheckExact(settled) || PyTuple_GET_SIZE(settled) != 2 ||
        read_counts(PyTuple_GET_ITEM(settled, 0), after[side]) < 0 ||
        read_counts(PyTuple_GET_ITEM(settled, 1), after[1 - side]) < 0)
        return 0;
    return fair_sides(after[0], after[1]);
}

/* The sides dice_after_plays last answered or read, and their counts: a run that goes on from them (the
 * tally's next call after a roll Python settled, or after a cube action) is given the same tuples, whose
 * counts are not read again (a tuple does not change, and holding it keeps its address from being reused) */
static PyObject *run_sides_held[2];
static long run_sides_counts[2][SIDE];

/* dice_after_plays' start (read_run_start's, each side's counts taken from run_sides_held where it is
 * the same tuple): 1, 0 when it is not one, or -1 with an exception */
static int run_start_held(PyObject *const *args, Py_ssize_t *at, long *side, long *last_line, long sides[2][SIDE])
{
    int overflow = 0;
    *at = PyLong_AsSsize_t(args[1]);
    *side = PyLong_AsLongAndOverflow(args[4], &overflow);
    *last_line = overflow ? 0 : PyLong_AsLongAndOverflow(args[5], &overflow);
    if (*at == -1 && PyErr_Occurred())
        return -1;
    if (overflow || *at < 0 || (*side != 0 && *side != 1))
        return 0;
    for (int k = 0; k < 2; k++) {
        if (args[2 + k] == run_sides_held[k])
            memcpy(sides[k], run_sides_counts[k], sizeof run_sides_counts[k]);
        else if (read_counts(args[2 + k], sides[k]) < 0)
            return 0;
    }
    return 1;
}

/* first and second (their counts in sides) held as the sides last answered */
static void hold_run_sides(PyObject *first, PyObject *second, long sides[2][SIDE])
{
    PyObject *given[2] = {first, second};
    for (int k = 0; k < 2; k++) {
        if (given[k] == run_sides_held[k])
            continue;
        Py_INCREF(given[k]);
        Py_XSETREF(run_sides_held[k], given[k]);
        memcpy(run_sides_counts[k], sides[k], sizeof run_sides_counts[k]);
    }
}

/* dice_after_plays' answer (done, first, second, side, last_line, over, facts): a tuple made directly (the
 * format Py_BuildValue parses cost some 1,000 instructions a call); first and second's references taken */
static PyObject *run_answer(Py_ssize_t done, PyObject *first, PyObject *second, long side, PyObject *last_line,
                            int over, const uint8_t *facts, Py_ssize_t answered, int six)
{
    PyObject *out = PyTuple_New(six ? 6 : 7);
    PyObject *count = PyLong_FromSsize_t(done), *mover = PyLong_FromLong(side);
    PyObject *bytes = six ? Py_None : PyBytes_FromStringAndSize((const char *)facts, answered);
    if (six)
        Py_INCREF(bytes);
    if (out == NULL || count == NULL || mover == NULL || last_line == NULL || bytes == NULL) {
        Py_XDECREF(out);
        Py_XDECREF(count);
        Py_XDECREF(mover);
        Py_XDECREF(last_line);
        Py_XDECREF(bytes);
        Py_DECREF(first);
        Py_DECREF(second);
        return NULL;
    }
    PyObject *ended = over ? Py_True : Py_False;
    Py_INCREF(ended);
    PyTuple_SET_ITEM(out, 0, count);
    PyTuple_SET_ITEM(out, 1, first);
    PyTuple_SET_ITEM(out, 2, second);
    PyTuple_SET_ITEM(out, 3, mover);
    PyTuple_SET_ITEM(out, 4, last_line);
    PyTuple_SET_ITEM(out, 5, ended);
    if (six)
        Py_DECREF(bytes);
    else
        PyTuple_SET_ITEM(out, 6, bytes);
    return out;
}

static inline void free_facts(uint8_t *facts, uint8_t *near)
{
    if (facts != near)
        PyMem_Free(facts);
}

/* Whether action (in a run that stopped at it) is one plays.settled_roll is asked about in the tally's run,
 * as DiceTally's run asked it: a play or a roll with no play (move or dance) of the side on roll, with dice */
static int settle_asked(PyObject *action, PyObject *move, PyObject *dance, long side)
{
    if (!PyTuple_Check(action) || PyTuple_GET_SIZE(action) < 7)
        return 0;
    PyObject *kind = PyTuple_GET_ITEM(action, 4), *mover = PyTuple_GET_ITEM(action, 3);
    if ((kind != move && kind != dance) || !PyLong_CheckExact(mover) || PyLong_AsLong(mover) != side) {
        PyErr_Clear();
        return 0;
    }
    int dice = PyObject_IsTrue(PyTuple_GET_ITEM(action, 5));
    if (dice < 0)
        PyErr_Clear();
    return dice > 0;
}

/* dice_after_plays (six 0: its 7-tuple answer) and dice_run (six 1: the replay's run_of_plays, a 6-tuple);
 * settle: NULL, or plays.settled_roll, asked (mine, theirs, action, side) where the C run stops at a play or
 * a roll with no play of the side on roll: the sides it answers are counted as `settled` sides are, and the
 * run goes on from them (None, or sides that are not a position's: the run stops there) */
static PyObject *run_of_rolls(PyObject *const *args, Py_ssize_t nargs, PyObject *settle, int six);

static PyObject *py_dice_after_plays(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    return run_of_rolls(args, nargs, NULL, 0);
}

/* The dice tally's run of plays in turn, as the replay asks it (bgcli.match.visitor.MatchVisitor.run_of_plays:
 * actions, at, first, second, side, last_line, move), its tally's part given first as a list (DiceTally._run:
 * dance, opening, own_off, state, counts or None (no match begun: nothing settled), the game's kinds,
 * settled_roll), bound by functools.partial: no Python frame a run. Fenced mirror of the run of
 * dice_after_plays and plays.settled_roll in turn, each roll counted as DiceTally._rolled counts it
 * (tests/test_dice_runs.py::test_the_tallys_run_of_plays_is_the_audits_short_path_with_chances); the game's
 * first roll settled, the list's opening is set false. */
static PyObject *py_dice_run(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 8 || !PyList_CheckExact(args[0]) || PyList_GET_SIZE(args[0]) != 7) {
        PyErr_SetString(PyExc_TypeError, "dice_run(tally, actions, at, first, second, side, last_line, move): a "
                                         "tally's list of 7 and the replay's run");
        return NULL;
    }
    PyObject *tally = args[0];
    if (PyList_GET_ITEM(tally, 4) == Py_None) {   /* no match begun: nothing settled */
        PyObject *out = PyTuple_New(6);
        if (out == NULL)
            return NULL;
        PyObject *items[6] = {PyLong_FromLong(0), args[3], args[4], args[5], args[6], Py_False};
        if (items[0] == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        for (int i = 0; i < 6; i++) {
            if (i)
                Py_INCREF(items[i]);
            PyTuple_SET_ITEM(out, i, items[i]);
        }
        return out;
    }
    PyObject *argv[14] = {args[1], args[2], args[3], args[4], args[5], args[6], args[7]};
    for (int i = 0; i < 6; i++)
        argv[7 + i] = PyList_GET_ITEM(tally, i);
    argv[13] = Py_None;
    PyObject *out = run_of_rolls(argv, 14, PyList_GET_ITEM(tally, 6), 1);
    if (out != NULL && PyList_GET_ITEM(tally, 1) != Py_False && PyTuple_GET_ITEM(out, 0) != NULL &&
        PyLong_AsSsize_t(PyTuple_GET_ITEM(out, 0)) > 0) {
        Py_INCREF(Py_False);
        PyList_SetItem(tally, 1, Py_False);
    }
    return out;
}

static PyObject *run_of_rolls(PyObject *const *args, Py_ssize_t nargs, PyObject *settle, int six)
{
    if (nargs < 8 || (nargs > 10 && nargs != 13 && nargs != 14) ||
        !(PyList_CheckExact(args[0]) || PyTuple_CheckExact(args[0])) ||
        !PyLong_CheckExact(args[1]) || !PyLong_CheckExact(args[4]) || !PyLong_CheckExact(args[5])) {
        PyErr_SetString(PyExc_TypeError,
                        "dice_after_plays(actions, at, first, second, side, last_line, move, dance[, opening[, own_off[, "
                        "state, counts, kinds[, settled]]]]) takes a list or tuple and ints");
        return NULL;
    }
    PyObject *actions = args[0], *move = args[6], *dance = args[7];
    /* opening: the first roll is the game's first (DiceTally._first), counted apart, without chances */
    int opening = nargs >= 9 ? PyObject_IsTrue(args[8]) : 0;
    if (opening < 0)
        return NULL;
    /* own_off: the checkers a side of the variant counts off from the start (saving_mask); 0 the standard game */
    long own_off = 0;
    if (nargs >= 10 && read_own_off(args[9], &own_off) < 0)
        return NULL;
    /* a tally (DiceTally's _state and _counts, the game's kinds as a bytearray): the rolls settled are
     * counted into it here (count_roll), as count_rolls would count their facts, and no facts are
     * answered; none: the facts are answered */
    Tally tally;
    PyObject *kinds = nargs >= 13 ? args[12] : NULL;
    /* settled: None, or the sides after actions[at] as Python settled it (plays.settled_roll, the
     * step of the audit's apply_all where its C run stops): that roll is counted in the position
     * before it as any other, and the run goes on from the sides given */
    PyObject *settled = nargs == 14 && args[13] != Py_None ? args[13] : NULL;
    if (kinds != NULL) {
        if (!PyByteArray_CheckExact(kinds)) {
            PyErr_SetString(PyExc_TypeError, "dice_after_plays: the game's kinds are a bytearray");
            return NULL;
        }
        if (!tally_open(args[10], args[11], &tally, "dice_after_plays"))
            return NULL;
        if (!state_fair(tally.state)) {
            tally_release(&tally);
            PyErr_SetString(PyExc_ValueError, "dice_after_plays: the state out of range");
            return NULL;
        }
    }
    Py_ssize_t at;
    long side, last_line, sides[2][SIDE], after[2][SIDE];
    int overflow = 0, start = run_start_held(args, &at, &side, &last_line, sides);
    if (start < 0) {
        if (kinds != NULL)
            tally_release(&tally);
        return NULL;
    }
    Py_ssize_t done = 0, size = PySequence_Fast_GET_SIZE(actions);
    int over = 0;
    /* the tuples of the sides known (held_made: those made or taken here, owned) and those answered */
    PyObject *held_made[2] = {NULL, NULL}, *answered_sides[2] = {NULL, NULL};
    uint8_t *facts = NULL, near[64 * ROLL_FACTS];   /* the facts of a run of up to 64 rolls kept here */
    SideMasks masks[2];   /* each side's, made again when its checkers move */
    if (start && at < size && fair_sides(sides[0], sides[1])) {
        hold_run_sides(args[2], args[3], sides);
        facts = size - at <= 64 ? near : PyMem_Malloc((size_t)(size - at) * ROLL_FACTS);
        if (facts == NULL) {
            if (kinds != NULL)
                tally_release(&tally);
            return PyErr_NoMemory();
        }
        side_masks(sides[0], &masks[0]);
        side_masks(sides[1], &masks[1]);
        /* the sides as tuples where they are known (the ones given, or settle's answer): handed to settle, and
         * answered, without making them again; NULL once the C run moved checkers */
        PyObject *known[2] = {args[2], args[3]}, *answer = NULL;   /* answer: settle's last, held */
        Py_ssize_t given_at = settled != NULL ? at : -1;
        for (Py_ssize_t i = at; i < size; i++) {
            PyObject *action = PySequence_Fast_GET_ITEM(actions, i);
            int given = i == given_at;   /* the roll Python settled */
            int a = 0, b = 0, hit = 0;
            long number = 0;
            int settles = PyTuple_Check(action) && PyTuple_GET_SIZE(action) >= 7;
            PyObject *kind = settles ? PyTuple_GET_ITEM(action, 4) : NULL;
            if (settles && kind != move && kind != dance)
                settles = 0;
            if (settles) {
                PyObject *line = PyTuple_GET_ITEM(action, 0), *mover = PyTuple_GET_ITEM(action, 3);
                PyObject *dice = PyTuple_GET_ITEM(action, 5), *text = PyTuple_GET_ITEM(action, 6);
                int no_text = text == Py_None || (PyUnicode_CheckExact(text) && PyUnicode_GET_LENGTH(text) == 0);
                if (!PyLong_CheckExact(mover) || PyLong_AsLong(mover) != side || !PyLong_CheckExact(line) ||
                    !PyTuple_CheckExact(dice) || PyTuple_GET_SIZE(dice) != 2 ||
                    (!given && kind == move &&
                     (!PyUnicode_CheckExact(text) || !PyUnicode_IS_READY(text) || !PyUnicode_IS_ASCII(text))) ||
                    (!given && kind == dance && !no_text)) {
                    PyErr_Clear();
                    settles = 0;
                } else {
                    number = PyLong_AsLongAndOverflow(line, &overflow);
                    if (overflow || read_die(PyTuple_GET_ITEM(dice, 0), &a) < 0 ||
                        read_die(PyTuple_GET_ITEM(dice, 1), &b) < 0) {
                        PyErr_Clear();
                        settles = 0;
                    } else if (given) {
                        if (!read_settled(settled, side, after))
                            break;   /* sides that are not a position's: the run stops (Python counts it) */
                        hit = 1;   /* either side may have moved */
                    } else if (kind == dance) {
                        /* a roll with no play, when the counts prove there is none (judge.dances: a checker on
                         * the bar, each die's entry point held), as apply_all settles it */
                        if (dance_proved(sides[side], sides[1 - side], a, b))
                            memcpy(after, sides, sizeof after);
                        else
                            settles = 0;
                    } else if (!play_made(sides[side], sides[1 - side], a, b, PyUnicode_1BYTE_DATA(text),
                                          PyUnicode_GET_LENGTH(text), after[side], after[1 - side], &hit))
                        settles = 0;
                }
            }
            if (!settles) {
                /* the C run stops here: settled_roll asked where DiceTally's run asked it, the run going on
                 * from its answer (this action again, as given) */
                if (settle == NULL || given || !settle_asked(action, move, dance, side))
                    break;
                PyObject *mine = known[side], *theirs = known[1 - side], *made[2] = {NULL, NULL};
                if (mine == NULL)
                    mine = made[0] = counts_tuple(sides[side]);
                if (theirs == NULL && mine != NULL)
                    theirs = made[1] = counts_tuple(sides[1 - side]);
                PyObject *side_obj = mine != NULL && theirs != NULL ? PyLong_FromLong(side) : NULL;
                PyObject *asked = NULL;
                if (side_obj != NULL) {
                    PyObject *call[4] = {mine, theirs, action, side_obj};
                    asked = PyObject_Vectorcall(settle, call, 4, NULL);
                    Py_DECREF(side_obj);
                }
                if (made[0] != NULL) {   /* the sides as tuples from now on (known was NULL) */
                    known[side] = made[0];
                    Py_XSETREF(held_made[side], made[0]);
                }
                if (made[1] != NULL) {
                    known[1 - side] = made[1];
                    Py_XSETREF(held_made[1 - side], made[1]);
                }
                if (asked == NULL) {
                    Py_XDECREF(answer);
                    free_facts(facts, near);
                    if (kinds != NULL)
                        tally_release(&tally);
                    Py_XDECREF(held_made[0]);
                    Py_XDECREF(held_made[1]);
                    return NULL;
                }
                if (asked == Py_None) {
                    Py_DECREF(asked);
                    break;
                }
                Py_XSETREF(answer, asked);
                settled = asked;
                given_at = i;
                i--;   /* this action again, as given */
                continue;
            }
            uint8_t *fact = facts + done * ROLL_FACTS;
            fact[0] = (uint8_t)side;
            fact[1] = (uint8_t)a;
            fact[2] = (uint8_t)b;
            if (opening && !done) {
                fact[0] |= OPENING_ROLL;
                memset(fact + 3, 0, ROLL_FACTS - 3);
            } else if (chances_of_roll(sides[side], sides[1 - side], &masks[side], &masks[1 - side], a, b, own_off,
                                       fact + 3) < 0) {
                Py_XDECREF(answer);
                Py_XDECREF(held_made[0]);
                Py_XDECREF(held_made[1]);
                free_facts(facts, near);
                if (kinds != NULL)
                    tally_release(&tally);
                return NULL;
            }
            if (given) {   /* the sides are settle's (or settled's) tuples, held: settle's answer is let go */
                for (int k = 0; k < 2; k++) {
                    PyObject *item = PyTuple_GET_ITEM(settled, k);
                    Py_INCREF(item);
                    Py_XSETREF(held_made[k ? 1 - side : side], item);
                    known[k ? 1 - side : side] = item;
                }
            } else if (kind != dance)
                known[side] = NULL;
            if (given || kind != dance) {   /* a roll with no play moves nothing */
                /* the mover's checkers moved; the opponent's only where the play may have hit
                 * (hit 0: the opponent unchanged), so only then are they compared */
                memcpy(sides[side], after[side], sizeof sides[side]);
                side_masks(sides[side], &masks[side]);
                if (hit && memcmp(sides[1 - side], after[1 - side], sizeof sides[1 - side]) != 0) {
                    memcpy(sides[1 - side], after[1 - side], sizeof sides[1 - side]);
                    side_masks(sides[1 - side], &masks[1 - side]);
                    if (!given)
                        known[1 - side] = NULL;
                }
            }
            done++;
            if (number > last_line)
                last_line = number;
            side = 1 - side;
            if (sides[0][0] == 15 || sides[1][0] == 15) {   /* position.CHECKERS borne off: the game is over */
                over = 1;
                break;
            }
        }
        if (done) {   /* the tuples of the sides, where known, answered as they are */
            for (int k = 0; k < 2; k++) {
                if (known[k] != NULL) {
                    Py_INCREF(known[k]);
                    answered_sides[k] = known[k];
                }
            }
        }
        Py_XDECREF(answer);
        Py_XDECREF(held_made[0]);
        Py_XDECREF(held_made[1]);
    }
    if (!done) {
        free_facts(facts, near);
        if (kinds != NULL)
            tally_release(&tally);
        Py_INCREF(args[2]);
        Py_INCREF(args[3]);
        Py_INCREF(args[5]);
        return run_answer(0, args[2], args[3], side, args[5], 0, NULL, 0, six);
    }
    Py_ssize_t answered = done * ROLL_FACTS;
    if (kinds != NULL) {   /* the rolls counted in order, their kinds added to the game's */
        Py_ssize_t had = PyByteArray_GET_SIZE(kinds);
        int failed = PyByteArray_Resize(kinds, had + done) < 0;
        if (!failed) {
            char *kind_out = PyByteArray_AS_STRING(kinds) + had;
            for (Py_ssize_t r = 0; r < done; r++)
                kind_out[r] = (char)count_roll(facts + r * ROLL_FACTS, &tally);
        }
        tally_release(&tally);
        if (failed) {
            free_facts(facts, near);
            Py_XDECREF(answered_sides[0]);
            Py_XDECREF(answered_sides[1]);
            return NULL;
        }
        answered = 0;
    }
    PyObject *first = answered_sides[0] != NULL ? answered_sides[0] : counts_tuple(sides[0]);
    PyObject *second = first == NULL ? NULL : answered_sides[1] != NULL ? answered_sides[1] : counts_tuple(sides[1]);
    if (second == NULL) {
        Py_XDECREF(first);
        if (first == NULL)
            Py_XDECREF(answered_sides[1]);
        free_facts(facts, near);
        return NULL;
    }
    hold_run_sides(first, second, sides);
    PyObject *out = run_answer(done, first, second, side, PyLong_FromLong(last_line), over, facts, answered, six);
    free_facts(facts, near);
    return out;
}

/* ---- row_actions: the .mat reader's move row, in C ---------------------------------
 * Fenced mirror of bgcli.formats.mat._row_actions for a row of ASCII text with no tab whose
 * cells are of the common shapes, numbered ("NN) A  B": its first way, the row split at its
 * gap, each cell read as _one_cell reads it) or a blank line or one cell alone ("Wins 1 point"):
 * tests/test_audit_paths.py::test_row_actions_in_c_reads_rows_as_the_python_reader compares the
 * two on generated rows.
 * NotImplemented for any other line (a tab, not ASCII, a cell it does not read): the
 * Python reader decides. */

enum { CELL_MOVE, CELL_DANCE, CELL_ROLL, CELL_DOUBLE, CELL_TAKE, CELL_DROP, CELL_WIN, CELL_LOSS, CELL_KINDS };

typedef struct {
    int kind;
    int first_die, second_die;
    Py_ssize_t play_from;   /* the play's text is [play_from, the cell's end) */
    long number;            /* the cube of Doubles, the points of Wins and Losses */
    int and_match;
} CellRead;

static inline int is_digit(Py_UCS1 c)
{
    return c >= '0' && c <= '9';
}

static inline int is_blank_or_tab(Py_UCS1 c)
{
    return c == ' ' || c == '\t';
}

/* mat._COMMON_STEP's point: [0-9]{1,2}, or the words bar (a step's start only) and off */
static int step_point(const Py_UCS1 *c, Py_ssize_t n, Py_ssize_t *at, int first)
{
    Py_ssize_t i = *at;
    if (i < n && is_digit(c[i])) {
        i += (i + 1 < n && is_digit(c[i + 1])) ? 2 : 1;
        if (i < n && is_digit(c[i]))
            return 0;
        *at = i;
        return 1;
    }
    if (i + 3 <= n && ((first && memcmp(c + i, "bar", 3) == 0) || memcmp(c + i, "off", 3) == 0)) {
        *at = i + 3;
        return 1;
    }
    return 0;
}

/* one mat._COMMON_STEP at c[*at] */
static int common_step(const Py_UCS1 *c, Py_ssize_t n, Py_ssize_t *at)
{
    if (!step_point(c, n, at, 1))
        return 0;
    if (*at < n && c[*at] == '*')
        (*at)++;
    int hops = 0;
    while (*at < n && c[*at] == '/') {
        (*at)++;
        if (!step_point(c, n, at, 0))
            return 0;
        if (*at < n && c[*at] == '*')
            (*at)++;
        hops++;
    }
    if (!hops)
        return 0;
    if (*at + 3 <= n && c[*at] == '(' && is_digit(c[*at + 1]) && c[*at + 2] == ')')
        *at += 3;
    return 1;
}

/* [0-9]{1,9} at c[*at] */
static int cell_number(const Py_UCS1 *c, Py_ssize_t n, Py_ssize_t *at, long *value)
{
    Py_ssize_t i = *at;
    long v = 0;
    while (i < n && is_digit(c[i]) && i - *at < 9)
        v = v * 10 + (c[i++] - '0');
    if (i == *at)
        return 0;
    *at = i;
    *value = v;
    return 1;
}

static inline int word_at(const Py_UCS1 *c, Py_ssize_t n, Py_ssize_t at, const char *word)
{
    Py_ssize_t len = (Py_ssize_t)strlen(word);
    return at + len <= n && memcmp(c + at, word, (size_t)len) == 0;
}

/* mat._one_cell: the whole of c[0, n) one cell of mat._cell_pattern; 1 and cell filled, or 0 */
static int read_cell(const Py_UCS1 *c, Py_ssize_t n, CellRead *cell)
{
    Py_ssize_t at;
    cell->play_from = n;
    cell->number = 0;
    cell->and_match = 0;
    if (n >= 3 && c[0] >= '1' && c[0] <= '6' && c[1] >= '1' && c[1] <= '6' && c[2] == ':') {
        cell->first_die = c[0] - '0';
        cell->second_die = c[1] - '0';
        cell->kind = CELL_DANCE;
        at = 3;
        if (at == n)
            return 1;
        if (!is_blank_or_tab(c[at]))
            return 0;
        while (at < n && is_blank_or_tab(c[at]))
            at++;
        if (at == n)
            return 0;
        if (n - at == 11 && memcmp(c + at, "Cannot Move", 11) == 0)
            return 1;
        if (c[at] == '?') {
            while (at < n && c[at] == '?')
                at++;
            cell->kind = CELL_ROLL;
            return at == n;
        }
        cell->kind = CELL_MOVE;
        cell->play_from = at;
        for (;;) {
            if (!common_step(c, n, &at))
                return 0;
            if (at == n)
                return 1;
            if (!is_blank_or_tab(c[at]))
                return 0;
            while (at < n && is_blank_or_tab(c[at]))
                at++;
            if (at == n)
                return 0;
        }
    }
    if (word_at(c, n, 0, "Doubles => ")) {
        at = 11;
        cell->kind = CELL_DOUBLE;
        return cell_number(c, n, &at, &cell->number) && at == n;
    }
    if (n == 5 && (memcmp(c, "Takes", 5) == 0 || memcmp(c, "Drops", 5) == 0)) {
        cell->kind = c[0] == 'T' ? CELL_TAKE : CELL_DROP;
        return 1;
    }
    int wins = word_at(c, n, 0, "Wins ");
    if (wins || word_at(c, n, 0, "Losses ")) {
        at = wins ? 5 : 7;
        cell->kind = wins ? CELL_WIN : CELL_LOSS;
        if (!cell_number(c, n, &at, &cell->number) || !word_at(c, n, at, " point"))
            return 0;
        at += 6;
        if (at < n && c[at] == 's')
            at++;
        if (wins && word_at(c, n, at, " and the match")) {
            at += 14;
            cell->and_match = 1;
        }
        return at == n;
    }
    return 0;
}

static PyObject *dice_tuples[7][7];   /* the dice of a roll as written, made once each */

static PyObject *written_dice(int a, int b)
{
    if (dice_tuples[a][b] == NULL)
        dice_tuples[a][b] = Py_BuildValue("(ii)", a, b);
    Py_XINCREF(dice_tuples[a][b]);
    return dice_tuples[a][b];
}

/* an Action (types[0], a named tuple) of the cell c[from, to) read into cell */
static PyObject *cell_action(PyObject *const *types, PyObject *line, Py_ssize_t column, long move_number, int side,
                             const Py_UCS1 *c, Py_ssize_t from, Py_ssize_t to, const CellRead *cell)
{
    PyTypeObject *type = (PyTypeObject *)types[0];
    PyObject *fields[12];
    fields[0] = Py_NewRef(line);
    fields[1] = PyLong_FromSsize_t(column);
    fields[2] = move_number < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(move_number);   /* -1: no "NN)" */
    fields[3] = PyLong_FromLong(side);
    fields[4] = Py_NewRef(types[1 + cell->kind]);
    int rolled = cell->kind == CELL_MOVE || cell->kind == CELL_DANCE || cell->kind == CELL_ROLL;
    fields[5] = rolled ? written_dice(cell->first_die, cell->second_die) : Py_NewRef(Py_None);
    fields[6] = cell->kind == CELL_MOVE ? PyUnicode_FromKindAndData(PyUnicode_1BYTE_KIND, c + from + cell->play_from,
                                                                   to - from - cell->play_from)
                                        : PyUnicode_New(0, 0);
    fields[7] = cell->kind == CELL_DOUBLE ? PyLong_FromLong(cell->number) : Py_NewRef(Py_None);
    fields[8] = cell->kind == CELL_WIN || cell->kind == CELL_LOSS ? PyLong_FromLong(cell->number) : Py_NewRef(Py_None);
    fields[9] = Py_NewRef(cell->and_match ? Py_True : Py_False);
    fields[10] = PyUnicode_FromKindAndData(PyUnicode_1BYTE_KIND, c + from, to - from);
    fields[11] = PyTuple_New(0);
    PyObject *action = type->tp_alloc(type, 12);
    for (int i = 0; i < 12; i++) {
        if (fields[i] == NULL || action == NULL) {
            for (int k = 0; k < 12; k++)
                Py_XDECREF(fields[k]);
            Py_XDECREF(action);
            return NULL;
        }
    }
    for (int i = 0; i < 12; i++)
        PyTuple_SET_ITEM(action, i, fields[i]);
    return action;
}

/* A row of one cell: the list of its one action (a new reference), or NULL with the action's error. */
static PyObject *one_action(PyObject *action)
{
    if (action == NULL)
        return NULL;
    PyObject *out = PyList_New(1);
    if (out == NULL) {
        Py_DECREF(action);
        return NULL;
    }
    PyList_SET_ITEM(out, 0, action);
    return out;
}

static PyObject *py_row_actions(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3 || !PyTuple_CheckExact(args[0]) || PyTuple_GET_SIZE(args[0]) != 1 + CELL_KINDS ||
        !PyType_Check(PyTuple_GET_ITEM(args[0], 0)) ||
        !PyType_IsSubtype((PyTypeObject *)PyTuple_GET_ITEM(args[0], 0), &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "row_actions(types, text, number): types is (Action, and a kind for each cell)");
        return NULL;
    }
    PyObject *const *types = &PyTuple_GET_ITEM(args[0], 0);
    PyObject *text = args[1], *line = args[2];
    if (!PyUnicode_CheckExact(text) || !PyUnicode_IS_READY(text) || !PyUnicode_IS_ASCII(text))
        Py_RETURN_NOTIMPLEMENTED;
    const Py_UCS1 *c = PyUnicode_1BYTE_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (memchr(c, '\t', (size_t)n) != NULL)
        Py_RETURN_NOTIMPLEMENTED;
    const Py_UCS1 *found = memchr(c, ')', (size_t)n);
    Py_ssize_t close = found == NULL ? -1 : found - c;
    if (close < 0) {
        /* a blank line, or an unnumbered row of one cell ("Wins 1 point" under the last row) */
        Py_ssize_t start = 0, end = n;
        while (start < n && c[start] == ' ')
            start++;
        if (start == n)
            return PyList_New(0);
        while (end > start && c[end - 1] == ' ')
            end--;
        CellRead cell;
        for (Py_ssize_t i = start; i + 1 < end; i++)
            if (c[i] == ' ' && c[i + 1] == ' ')
                Py_RETURN_NOTIMPLEMENTED;
        if (!read_cell(c + start, end - start, &cell))
            Py_RETURN_NOTIMPLEMENTED;
        return one_action(cell_action(types, line, start + 1, -1, start > 12 ? 1 : 0, c, start, end, &cell));
    }
    if (close == 0 || close >= 20)
        Py_RETURN_NOTIMPLEMENTED;
    Py_ssize_t head = 0;
    while (head < close && c[head] == ' ')
        head++;
    if (head == close || close - head > 9)
        Py_RETURN_NOTIMPLEMENTED;
    long move_number = 0;
    for (Py_ssize_t i = head; i < close; i++) {
        if (!is_digit(c[i]))
            Py_RETURN_NOTIMPLEMENTED;
        move_number = move_number * 10 + (c[i] - '0');
    }
    Py_ssize_t start = close + 1;
    while (start < n && c[start] == ' ')
        start++;
    if (start == n)
        return PyList_New(0);
    Py_ssize_t gap = -1;
    for (Py_ssize_t i = start; i + 1 < n; i++)
        if (c[i] == ' ' && c[i + 1] == ' ') {
            gap = i;
            break;
        }
    Py_ssize_t first_end = gap >= 0 ? gap : n;
    while (gap < 0 && first_end > start && c[first_end - 1] == ' ')
        first_end--;
    CellRead first, second;
    if (!read_cell(c + start, first_end - start, &first))
        Py_RETURN_NOTIMPLEMENTED;
    Py_ssize_t other = gap >= 0 ? gap : n, other_end = n;
    while (other < n && c[other] == ' ')
        other++;
    if (other == n) {
        int side = start - close - 1 > 12 ? 1 : 0;   /* mat.RIGHT_COLUMN_GAP */
        return one_action(cell_action(types, line, start + 1, move_number, side, c, start, first_end, &first));
    }
    while (other_end > other && c[other_end - 1] == ' ')
        other_end--;
    if (!read_cell(c + other, other_end - other, &second))
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *left = cell_action(types, line, start + 1, move_number, 0, c, start, first_end, &first);
    if (left == NULL)
        return NULL;
    PyObject *right = cell_action(types, line, other + 1, move_number, 1, c, other, other_end, &second);
    if (right == NULL) {
        Py_DECREF(left);
        return NULL;
    }
    PyObject *out = PyList_New(2);
    if (out == NULL) {
        Py_DECREF(left);
        Py_DECREF(right);
        return NULL;
    }
    PyList_SET_ITEM(out, 0, left);
    PyList_SET_ITEM(out, 1, right);
    return out;
}

static PyMethodDef methods[] = {
    {"parse_id", py_parse_id, METH_O,
     "parse_id(text): (player, opponent) of a valid Position ID, as parse_position_id reads it; None otherwise."},
    {"legal_keys", (PyCFunction)(void (*)(void))py_legal_keys, METH_FASTCALL,
     "legal_keys(player, opponent, high, low): the plays as generator.legal_keys finds them, {key: raw pairs}."},
    {"query_ids", (PyCFunction)(void (*)(void))py_query_ids, METH_FASTCALL,
     "query_ids(player, opponent, keys, own): (the position's ID or own, the result ID of each key)."},
    {"query_line", (PyCFunction)(void (*)(void))py_query_line, METH_FASTCALL,
     "query_line(texts, fragment, make_position, line): run_moves' line of a Position ID and dice, or None."},
    {"query_lines", (PyCFunction)(void (*)(void))py_query_lines, METH_FASTCALL,
     "query_lines(texts, fragment, make_position, data, start, end, max_line): run_moves of batch_lines of "
     "data[start:end] while its lines are Position IDs and dice: (their text, where it stopped, their count)."},
    {"play_text", (PyCFunction)(void (*)(void))py_play_text, METH_FASTCALL,
     "play_text(moves, hits, names): notation.canonical_text's text of raw pairs and hit marks; None for names not ASCII."},
    {"sides_after_steps", (PyCFunction)(void (*)(void))py_sides_after_steps, METH_FASTCALL,
     "sides_after_steps(player, opponent, high, low, moves): judge.sides_after_steps; NotImplemented for input it does not read."},
    {"row_actions", (PyCFunction)(void (*)(void))py_row_actions, METH_FASTCALL,
     "row_actions(types, text, number): mat._row_actions' Actions of an ASCII row of the common shapes; NotImplemented otherwise."},
    {"sides_after_plays", (PyCFunction)(void (*)(void))py_sides_after_plays, METH_FASTCALL,
     "sides_after_plays(actions, at, first, second, side, last_line, move[, dance]): apply_all's run of plays "
     "(and rolls with no play) in turn."},
    {"count_rolls", (PyCFunction)(void (*)(void))py_count_rolls, METH_FASTCALL,
     "count_rolls(facts, state, counts): DiceTally._rolled (or _opening) of each roll of dice_after_plays' "
     "facts, into a tally's state and a match's counts; the kinds of the rolls."},
    {"roll_chances", (PyCFunction)(void (*)(void))py_roll_chances, METH_FASTCALL,
     "roll_chances(player, opponent, a, b): dice.roll_chances of the roll on the sides' counts; NotImplemented otherwise."},
    {"dice_run", (PyCFunction)(void (*)(void))py_dice_run, METH_FASTCALL,
     "dice_run(tally, actions, at, first, second, side, last_line, move): the dice tally's run of plays in turn "
     "(DiceTally._run, then the replay's arguments): dice_after_plays counting into the tally, and plays.settled_roll "
     "where it stops; (done, first, second, side, last_line, over)."},
    {"dice_after_plays", (PyCFunction)(void (*)(void))py_dice_after_plays, METH_FASTCALL,
     "dice_after_plays(actions, at, first, second, side, last_line, move, dance[, opening[, own_off[, state, counts, "
     "kinds[, settled]]]]): apply_all's run of plays and proven dances in turn, and each roll's facts (the first a game's first "
     "roll where opening is true), or with a tally its rolls counted into it (settled: the sides after actions[at] as "
     "Python settled it)."},
    {"sides_after_play", (PyCFunction)(void (*)(void))py_sides_after_play, METH_FASTCALL,
     "sides_after_play(mine, theirs, dice, text, side): plays.sides_after_play of a play in gnubg's .mat spelling; NotImplemented otherwise."},
    {"moves_line", (PyCFunction)(void (*)(void))py_moves_line, METH_FASTCALL,
     "moves_line(texts, fragment, position, dice, own): MovesWriter.line's JSON line."},
    {NULL, NULL, 0, NULL},
};

static int module_traverse(PyObject *module, visitproc visit, void *arg)
{
    State *state = PyModule_GetState(module);
    Py_VISIT(state->player);
    Py_VISIT(state->opponent);
    return 0;
}

static int module_clear(PyObject *module)
{
    State *state = PyModule_GetState(module);
    Py_CLEAR(state->player);
    Py_CLEAR(state->opponent);
    return 0;
}

static void module_free(void *module)
{
    module_clear((PyObject *)module);
}

/* setup.py passes the digest of this file, so that a module built in place and
   left behind by a later edit of the source is not used (position._load_speedups) */
#ifndef BGCLI_SOURCE_DIGEST
#define BGCLI_SOURCE_DIGEST ""
#endif

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT, "bgcli.core._speedups",
    "bgcli's legal-play generator, result Position IDs and moves --batch line in C (see generator.py).",
    sizeof(State), methods, NULL, module_traverse, module_clear, module_free,
};

PyMODINIT_FUNC PyInit__speedups(void)
{
    PyObject *module = PyModule_Create(&speedups_module);
    if (module == NULL)
        return NULL;
    State *state = PyModule_GetState(module);
    state->player = PyUnicode_InternFromString("player");
    state->opponent = PyUnicode_InternFromString("opponent");
    if (state->player == NULL || state->opponent == NULL || PyType_Ready(&TextsType) < 0 ||
        PyModule_AddObjectRef(module, "Texts", (PyObject *)&TextsType) < 0 ||
        PyModule_AddStringConstant(module, "source_digest", BGCLI_SOURCE_DIGEST) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
