// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe/reference.h"

/* An opaque operand: the compiler must not fold the chain away. */
static volatile uint64_t operand = 3;

#define REPEAT8(s) s s s s s s s s

#if defined(__x86_64__)
#define CHAIN_INSN "imul %1, %0\n\t"
#define ADD_INSN "add %1, %0\n\t"
static const struct reference_info info = {
	"imul r64, r64", 3.0,
	"Intel and AMD optimisation manuals: 3 cycles since Nehalem and Zen", true,
};
#elif defined(__i386__)
#define CHAIN_INSN "imul %1, %0\n\t"
#define ADD_INSN "add %1, %0\n\t"
static const struct reference_info info = {
	"imul r32, r32", 3.0,
	"Intel and AMD optimisation manuals: 3 cycles since Nehalem and Zen", false,
};
#elif defined(__aarch64__) || defined(__arm__)
#define CHAIN_INSN "add %0, %0, %1\n\t"
#define ADD_INSN CHAIN_INSN
static const struct reference_info info = {
	"add reg, reg", 1.0,
	"Arm Cortex-A and Neoverse software optimisation guides: 1 cycle", false,
};
#elif defined(__riscv)
#define CHAIN_INSN "add %0, %0, %1\n\t"
#define ADD_INSN CHAIN_INSN
static const struct reference_info info = {
	"add reg, reg", 1.0, "SiFive U7 and T-Head C9xx manuals: 1 cycle", false,
};
#elif defined(__powerpc__) || defined(__powerpc64__)
#define CHAIN_INSN "add %0, %0, %1\n\t"
#define ADD_INSN CHAIN_INSN
static const struct reference_info info = {
	"add reg, reg", 2.0, "POWER9: 2 cycles (GCC's power9 scheduling model)",
	false,
};
#endif

#ifdef CHAIN_INSN
/* The register width of the chain: 32-bit targets multiply 32-bit words. */
typedef unsigned long chain_word;

uint64_t reference_chain(unsigned long ops)
{
	chain_word x = 1, m = (chain_word)operand;

	for (unsigned long i = 0; i + REFERENCE_UNROLL <= ops; i += REFERENCE_UNROLL)
		__asm__ __volatile__(REPEAT8(CHAIN_INSN) : "+r"(x) : "r"(m));
	return x;
}

uint64_t reference_add_chain(unsigned long ops)
{
	chain_word x = 1, m = (chain_word)operand;

	for (unsigned long i = 0; i + REFERENCE_UNROLL <= ops; i += REFERENCE_UNROLL)
		__asm__ __volatile__(REPEAT8(ADD_INSN) : "+r"(x) : "r"(m));
	return x;
}
#else
/* Unknown architecture: a C chain whose latency nobody documents. */
static const struct reference_info info = {
	"add (C)", 1.0, "unknown architecture: 1 cycle assumed", false,
};

uint64_t reference_chain(unsigned long ops)
{
	uint64_t x = 1, m = operand;

	for (unsigned long i = 0; i < ops; i++) {
		x += m;
		__asm__ __volatile__("" : "+r"(x));
	}
	return x;
}

uint64_t reference_add_chain(unsigned long ops)
{
	return reference_chain(ops);
}
#endif

const struct reference_info *reference_info(void)
{
	return &info;
}
