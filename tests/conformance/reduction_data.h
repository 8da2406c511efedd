/* Test data for the reduction collectives (Reduce, Allreduce, Scan, Exscan,
 * Reduce_scatter): every predefined op on the C types MPI allows it for, MINLOC/MAXLOC
 * on MPI_2INT and MPI_DOUBLE_INT, and two user ops -- a commutative sum and a
 * non-commutative "sequence" op that proves operands are combined in rank order.
 * Expected results are folds over ranks, computed on each rank. (MPI_CHAR is not a
 * reduction type in MPI; MPI_SIGNED_CHAR stands for char here.) */
#ifndef XSIM_REDUCTION_DATA_H
#define XSIM_REDUCTION_DATA_H

#include "conformance.h"

enum { R_INT, R_DOUBLE, R_LONG_LONG, R_SCHAR, R_TYPES };
enum { OP_SUM, OP_PROD, OP_MIN, OP_MAX, OP_LAND, OP_LOR, OP_LXOR, OP_BAND, OP_BOR, OP_BXOR, OP_COUNT };

static inline MPI_Datatype red_type(int t) {
    switch (t) {
        case R_INT: return MPI_INT;
        case R_DOUBLE: return MPI_DOUBLE;
        case R_LONG_LONG: return MPI_LONG_LONG;
        default: return MPI_SIGNED_CHAR;
    }
}
static inline size_t red_size(int t) {
    switch (t) {
        case R_INT: return sizeof(int);
        case R_DOUBLE: return sizeof(double);
        case R_LONG_LONG: return sizeof(long long);
        default: return 1;
    }
}
static inline MPI_Op red_op(int o) {
    const MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX, MPI_LAND, MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR};
    return ops[o];
}
static inline const char* red_op_name(int o) {
    const char* const names[] = {"SUM", "PROD", "MIN", "MAX", "LAND", "LOR", "LXOR", "BAND", "BOR", "BXOR"};
    return names[o];
}
/* Logical and bitwise ops are not defined for floating point. */
static inline int red_allowed(int o, int t) { return t != R_DOUBLE || o <= OP_MAX; }

/* Rank r's element i for op o and type t; small enough never to overflow. */
static inline long long red_value(int o, int t, int r, long i) {
    switch (o) {
        case OP_SUM: return t == R_SCHAR ? (r < 60 ? (r + i) % 2 : 0) : r * 3LL + i - 50;
        case OP_PROD: return (r % 7 == i % 7 && r < 14) ? 2 : 1;
        case OP_MIN:
        case OP_MAX: return (r * 37LL + i * 11) % 101 - 50;
        case OP_LAND: return (r * 5LL + i) % 7 != 0;
        case OP_LOR:
        case OP_LXOR: return (r * 5LL + i) % 7 == 0;
        case OP_BAND: return 0x7f & ~(1 << ((r + i) % 7));
        default: return (r * 37LL + i * 13) & 0x7f;
    }
}
static inline long long red_apply(int o, long long a, long long b) {
    switch (o) {
        case OP_SUM: return a + b;
        case OP_PROD: return a * b;
        case OP_MIN: return a < b ? a : b;
        case OP_MAX: return a > b ? a : b;
        case OP_LAND: return a && b;
        case OP_LOR: return a || b;
        case OP_LXOR: return !a != !b;
        case OP_BAND: return a & b;
        case OP_BOR: return a | b;
        default: return a ^ b;
    }
}
/* The reduction of element i over ranks first..last. */
static inline long long red_fold(int o, int t, int first, int last, long i) {
    long long acc = red_value(o, t, first, i);
    int r;
    for (r = first + 1; r <= last; r++) acc = red_apply(o, acc, red_value(o, t, r, i));
    return acc;
}
static inline void red_store(int t, void* buf, long i, long long v) {
    switch (t) {
        case R_INT: ((int*)buf)[i] = (int)v; break;
        case R_DOUBLE: ((double*)buf)[i] = (double)v; break;
        case R_LONG_LONG: ((long long*)buf)[i] = v; break;
        default: ((signed char*)buf)[i] = (signed char)v;
    }
}
static inline long long red_load(int t, const void* buf, long i) {
    switch (t) {
        case R_INT: return ((const int*)buf)[i];
        case R_DOUBLE: return (long long)((const double*)buf)[i];
        case R_LONG_LONG: return ((const long long*)buf)[i];
        default: return ((const signed char*)buf)[i];
    }
}
static inline void red_fill(int o, int t, int r, void* buf, long n) {
    long i;
    for (i = 0; i < n; i++) red_store(t, buf, i, red_value(o, t, r, i));
}
/* Long vectors are checked at a sample of elements (the fold costs O(p) each). */
static inline int red_sampled(long i, long n) { return n <= 64 || i < 4 || i % 499 == 0 || i == n - 1; }

/* MINLOC/MAXLOC pairs: value (r*37 + i*11) % 13, location r; ties go to the lower rank. */
typedef struct { int v; int loc; } red_int_loc;
typedef struct { double v; int loc; } red_double_loc;
static inline int red_loc_value(int r, long i) { return (int)((r * 37L + i * 11) % 13); }
static inline void red_loc_fold(int maxloc, int first, int last, long i, int* v, int* loc) {
    int r;
    *v = red_loc_value(first, i);
    *loc = first;
    for (r = first + 1; r <= last; r++) {
        const int x = red_loc_value(r, i);
        if (maxloc ? x > *v : x < *v) {
            *v = x;
            *loc = r;
        }
    }
}

/* The non-commutative op: an element (first, last, ok) stands for the ranks first..last
 * combined in order; combining a with b (a from lower ranks) is in order only when
 * b.first == a.last + 1. Rank r contributes (r, r, 1). */
static inline void red_sequence_op(void* in, void* inout, int* len, MPI_Datatype* type) {
    const int* a = (const int*)in;
    int* b = (int*)inout;
    int k;
    (void)type;
    for (k = 0; k < *len; k++, a += 3, b += 3) {
        b[2] = a[2] && b[2] && b[0] == a[1] + 1;
        b[0] = a[0];
    }
}
static inline void red_sum_op(void* in, void* inout, int* len, MPI_Datatype* type) {
    const int* a = (const int*)in;
    int* b = (int*)inout;
    int k;
    (void)type;
    for (k = 0; k < *len; k++) b[k] += a[k];
}
static inline void red_sequence_fill(int r, int* buf, long n) {
    long k;
    for (k = 0; k < n; k++) {
        buf[3 * k] = r;
        buf[3 * k + 1] = r;
        buf[3 * k + 2] = 1;
    }
}
static inline int red_sequence_is(const int* buf, long n, int first, int last) {
    long k;
    for (k = 0; k < n; k++)
        if (buf[3 * k] != first || buf[3 * k + 1] != last || buf[3 * k + 2] != 1) return 0;
    return 1;
}

#endif
