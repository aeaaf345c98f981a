// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench-empty: a program that does nothing, linked statically when
 * the toolchain can. clockbench exec times it, started the same way as the
 * command, to report what the harness itself costs (fork, exec, exit,
 * reap): the floor under any command's time.
 */
int main(void)
{
	return 0;
}
