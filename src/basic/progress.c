// SPDX-License-Identifier: GPL-2.0-or-later
#include "basic/progress.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "basic/util.h"

/* How often the helper redraws the line while a step runs. */
#define PROGRESS_TICK_S 1

double progress_left_s(size_t done, size_t total, double elapsed_s, double since_s)
{
	double left;

	if (done == 0 || done >= total)
		return done >= total ? 0 : NAN;
	/* The pace of the steps done, from their share of the time. */
	left = (elapsed_s - since_s) / (double)done * (double)(total - done) - since_s;
	return left > 0 ? left : 0;
}

/* The line, from the last update; the caller holds the lock. */
static void draw(const struct progress *p)
{
	uint64_t now = now_ns();
	double elapsed = (double)(now - p->start_ns) / 1e9;
	double since = (double)(now - p->update_ns) / 1e9;
	double left = progress_left_s(p->done, p->total, elapsed, since);
	char eta[48];

	if (isnan(left))
		snprintf(eta, sizeof(eta), "estimating the time left");
	else
		snprintf(eta, sizeof(eta), "~%.0f s left", left);
	fprintf(stderr, "\r\033[K[%3zu/%zu] %-40.40s %5.1f s elapsed, %s",
		p->done + 1, p->total, p->what, elapsed, eta);
	fflush(stderr);
}

static void *tick(void *arg)
{
	struct progress *p = arg;
	struct timespec until;

	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += PROGRESS_TICK_S;
		if (pthread_cond_timedwait(&p->wake, &p->lock, &until) != 0 && !p->stop &&
		    p->update_ns)
			draw(p);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

void progress_init(struct progress *p, size_t total)
{
	sigset_t all, old;

	memset(p, 0, sizeof(*p));
	p->enabled = isatty(STDERR_FILENO);
	p->total = total;
	p->start_ns = now_ns();
	if (!p->enabled)
		return;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	/*
	 * The helper blocks every signal (it inherits the mask): a stop
	 * signal must interrupt the main thread's wait for a command or a
	 * child, never this one's sleep. Without the helper, the line is
	 * only drawn at each step.
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	p->ticking = pthread_create(&p->ticker, NULL, tick, p) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void progress_update(struct progress *p, size_t done, const char *what)
{
	if (!p->enabled)
		return;
	pthread_mutex_lock(&p->lock);
	p->done = done;
	p->update_ns = now_ns();
	snprintf(p->what, sizeof(p->what), "%s", what);
	draw(p);
	pthread_mutex_unlock(&p->lock);
}

void progress_done(struct progress *p)
{
	if (!p->enabled)
		return;
	if (p->ticking) {
		pthread_mutex_lock(&p->lock);
		p->stop = true;
		pthread_cond_signal(&p->wake);
		pthread_mutex_unlock(&p->lock);
		pthread_join(p->ticker, NULL);
	}
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->wake);
	fputs("\r\033[K", stderr);
	p->enabled = false;
}
