/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one order of interleaved measurements: which of n sides (ab's arms,
 * timens's host and namespace, exec's commands, the kernels booted by
 * `kernels`) goes j-th in repetition k.
 *
 * seed 0: forwards on even repetitions, backwards on odd (A B B A ...: a
 * linear drift touches every side alike over two repetitions, and no
 * side always follows another). Otherwise each repetition a shuffle of
 * its own, the same for the same seed (a drift with the period of the
 * A B B A order cannot line up with it). Every side once per repetition
 * either way: the order is balanced.
 */
#ifndef CLOCKBENCH_ORDER_H
#define CLOCKBENCH_ORDER_H

#include <stddef.h>
#include <stdint.h>

/* More sides than this are never shuffled: A B B A instead. */
#define BALANCED_ORDER_MAX 64

size_t balanced_order_at(size_t n, unsigned k, size_t j, uint64_t seed);

#endif
