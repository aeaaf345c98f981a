/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How a store is opened: the word the interface (results/store.h) and its
 * backends (results/store-backend.h) both take, so that a backend needs
 * nothing of the interface it serves.
 */
#ifndef CLOCKBENCH_STORE_ACCESS_H
#define CLOCKBENCH_STORE_ACCESS_H

enum store_access {
	STORE_READ,	/* read-only: the file must exist and hold a store ("no
			 * results database at .."); never created, migrated
			 * or written, and readable on read-only storage */
	STORE_UPDATE,	/* the file must exist; checked whole before writing */
	STORE_WRITE,	/* as UPDATE, but created when absent (its directory
			 * must exist) */
};

#endif
