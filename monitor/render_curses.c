// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Interactive view: a top-like screen over the shared model. The only file
 * that includes curses. The terminal is restored on every way out: normal
 * exit, SIGINT/SIGTERM (the loop sees the flag and returns), and a crash
 * (ksmbdtop.c's fatal-signal handler calls kt_curses_restore()).
 */
#include <curses.h>
#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "view.h"

enum kt_screen {
	SCREEN_TABLE,
	SCREEN_CMDS,
	SCREEN_HELP,
};

struct ui {
	enum kt_screen screen;
	enum kt_screen before_help;
	char selected[KSMBD_STATS_ADDR_LEN];	/* follows the row on re-sort */
	size_t top;				/* first visible row */
	bool paused;
	double next_tick;			/* monotonic seconds */
};

/* Whether the screen is in curses mode; read by the crash handler. */
static volatile int curses_active;

void kt_curses_restore(void)
{
	if (curses_active) {
		curses_active = 0;
		endwin();
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void put_line(int y, const char *text, attr_t attr)
{
	if (y >= LINES)
		return;
	attron(attr);
	mvaddnstr(y, 0, text, COLS);
	attroff(attr);
}

static int draw_header(const struct kt_ctx *ctx, const struct ui *ui)
{
	char lines[KT_HEADER_LINES][KT_LINE_MAX];
	unsigned int n, i;

	n = kt_fmt_header(&ctx->model, ctx->note, time(NULL), lines);
	for (i = 0; i < n; i++)
		put_line((int)i, lines[i], i == n - 1 && ctx->note[0] ?
			 A_BOLD : A_NORMAL);
	if (ui->paused)
		put_line((int)n++, "[paused: p resumes]", A_BOLD);
	return (int)n + 1;
}

static size_t selected_index(const struct kt_model *m, const struct ui *ui)
{
	size_t i;

	for (i = 0; i < m->nr_rows; i++)
		if (!strcmp(m->rows[i]->addr, ui->selected))
			return i;
	return 0;
}

static void select_index(const struct kt_model *m, struct ui *ui, size_t i)
{
	if (!m->nr_rows) {
		ui->selected[0] = '\0';
		return;
	}
	if (i >= m->nr_rows)
		i = m->nr_rows - 1;
	snprintf(ui->selected, sizeof(ui->selected), "%s", m->rows[i]->addr);
}

static void draw_title(int y, const struct kt_model *m)
{
	char buf[KT_LINE_MAX];
	struct kt_col_span span = { 0, 0 };

	kt_fmt_client_title(buf, sizeof(buf), m->sort_col, &span);
	put_line(y, buf, A_REVERSE);
	/* the sort column stands out inside the title bar */
	if ((int)span.start < COLS) {
		attron(A_BOLD | A_UNDERLINE);
		mvaddnstr(y, (int)span.start, buf + span.start,
			  (int)span.width < COLS - (int)span.start ?
			  (int)span.width : COLS - (int)span.start);
		attroff(A_BOLD | A_UNDERLINE);
	}
}

static void draw_table(const struct kt_ctx *ctx, struct ui *ui, int y)
{
	const struct kt_model *m = &ctx->model;
	char buf[KT_LINE_MAX];
	size_t sel, i;
	int rows;

	if (!m->sum.have_bpf) {
		put_line(y, "No per-client table: BPF statistics unavailable.",
			 A_NORMAL);
		return;
	}
	draw_title(y++, m);
	rows = LINES - y;
	if (rows <= 0)
		return;
	sel = selected_index(m, ui);
	select_index(m, ui, sel);
	if (sel < ui->top)
		ui->top = sel;
	if (sel >= ui->top + (size_t)rows)
		ui->top = sel - (size_t)rows + 1;
	for (i = ui->top; i < m->nr_rows && y < LINES; i++, y++) {
		kt_fmt_client_row(buf, sizeof(buf), m->rows[i]);
		put_line(y, buf, i == sel ? A_REVERSE : A_NORMAL);
	}
}

static void draw_cmds(const struct kt_ctx *ctx, const struct ui *ui, int y)
{
	const struct kt_client *c = kt_model_find(&ctx->model, ui->selected);
	unsigned int idx[KSMBD_STATS_NR_CMDS];
	char buf[KT_LINE_MAX];
	size_t n, i;

	if (!c) {
		snprintf(buf, sizeof(buf),
			 "Client %s is gone (Esc or q: back)", ui->selected);
		put_line(y, buf, A_BOLD);
		return;
	}
	snprintf(buf, sizeof(buf),
		 "Client %s  user %s  dialect %s  sessions %u  (Esc or q: back)",
		 c->addr, c->user[0] ? c->user : "-",
		 ksmbd_stats_dialect_name(c->dialect), c->sessions);
	put_line(y++, buf, A_BOLD);
	kt_fmt_cmd_title(buf, sizeof(buf));
	put_line(y++, buf, A_REVERSE);
	n = kt_client_cmd_order(c, idx);
	for (i = 0; i < n && y < LINES; i++, y++) {
		kt_fmt_cmd_row(buf, sizeof(buf), c, idx[i]);
		put_line(y, buf, A_NORMAL);
	}
}

static void draw_help(void)
{
	int y;

	for (y = 0; kt_help_lines[y]; y++)
		put_line(y, kt_help_lines[y], y ? A_NORMAL : A_BOLD);
}

static void draw(struct kt_ctx *ctx, struct ui *ui)
{
	int y;

	erase();
	if (ui->screen == SCREEN_HELP) {
		draw_help();
	} else {
		y = draw_header(ctx, ui);
		if (ui->screen == SCREEN_CMDS)
			draw_cmds(ctx, ui, y);
		else
			draw_table(ctx, ui, y);
	}
	refresh();
}

/* The 'd' prompt on the last line; blocking, with echo, like top. */
static void prompt_delay(struct kt_ctx *ctx)
{
	char in[32] = "";
	double d;
	char *end;

	move(LINES - 1, 0);
	clrtoeol();
	attron(A_BOLD);
	printw("Delay in seconds [%.2f]: ", ctx->opts.delay_s);
	attroff(A_BOLD);
	echo();
	curs_set(1);
	timeout(-1);
	getnstr(in, sizeof(in) - 1);
	noecho();
	curs_set(0);
	if (!in[0])
		return;
	d = strtod(in, &end);
	if (*end || !(d >= 0.1 && d <= 3600)) {
		snprintf(ctx->note, sizeof(ctx->note),
			 "delay must be between 0.1 and 3600 seconds");
		return;
	}
	ctx->opts.delay_s = d;
}

static void move_selection(struct kt_ctx *ctx, struct ui *ui, long step)
{
	const struct kt_model *m = &ctx->model;
	size_t sel = selected_index(m, ui);

	if (step < 0 && (size_t)-step > sel)
		sel = 0;
	else
		sel += step;
	select_index(m, ui, sel);
}

static void sort_by(struct kt_ctx *ctx, int col)
{
	if (col < 0)
		col = KT_COL_NR - 1;
	if (col >= KT_COL_NR)
		col = 0;
	kt_model_sort(&ctx->model, (enum kt_col)col);
	ctx->opts.sort_col = (enum kt_col)col;
}

/* false: quit. */
static bool table_key(struct kt_ctx *ctx, struct ui *ui, int ch)
{
	int col;

	switch (ch) {
	case 'q':
		return false;
	case KEY_UP:
		move_selection(ctx, ui, -1);
		return true;
	case KEY_DOWN:
		move_selection(ctx, ui, 1);
		return true;
	case KEY_PPAGE:
		move_selection(ctx, ui, -(LINES / 2));
		return true;
	case KEY_NPAGE:
		move_selection(ctx, ui, LINES / 2);
		return true;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (ui->selected[0])
			ui->screen = SCREEN_CMDS;
		return true;
	case '<':
		sort_by(ctx, (int)ctx->model.sort_col - 1);
		return true;
	case '>':
		sort_by(ctx, (int)ctx->model.sort_col + 1);
		return true;
	}
	col = kt_col_by_key(ch);
	if (col >= 0)
		sort_by(ctx, col);
	return true;
}

/* false: quit. */
static bool handle_key(struct kt_ctx *ctx, struct ui *ui, int ch)
{
	if (ui->screen == SCREEN_HELP) {
		ui->screen = ui->before_help;
		return true;
	}
	switch (ch) {
	case 'h':
	case '?':
		ui->before_help = ui->screen;
		ui->screen = SCREEN_HELP;
		return true;
	case 'p':
	case ' ':
		ui->paused = !ui->paused;
		return true;
	case 'd':
		prompt_delay(ctx);
		ui->next_tick = now_s() + ctx->opts.delay_s;
		return true;
	}
	if (ui->screen == SCREEN_CMDS) {
		if (ch == 27 || ch == 'q' || ch == KEY_BACKSPACE ||
		    ch == KEY_LEFT)
			ui->screen = SCREEN_TABLE;
		return true;
	}
	return table_key(ctx, ui, ch);
}

static int curses_init(struct kt_ctx *ctx)
{
	int ret;

	/* before curses: a failure prints a plain line on a sane terminal */
	ret = kt_tick(ctx);
	if (ret == -ENOMEM)
		return ret;
	setlocale(LC_ALL, "");
	if (!initscr())
		return -EIO;
	curses_active = 1;
	atexit(kt_curses_restore);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	return 0;
}

static int curses_loop(struct kt_ctx *ctx)
{
	struct ui ui = { .screen = SCREEN_TABLE };
	long ticks = 0;

	ui.next_tick = now_s() + ctx->opts.delay_s;
	select_index(&ctx->model, &ui, 0);
	while (!kt_stop_requested()) {
		double wait;
		int ch;

		draw(ctx, &ui);
		wait = ui.next_tick - now_s();
		timeout(wait > 0 ? (int)(wait * 1000) + 1 : 0);
		ch = getch();
		if (ch == KEY_RESIZE)
			continue;	/* ncurses updated LINES/COLS */
		if (ch != ERR) {
			if (!handle_key(ctx, &ui, ch))
				break;
			continue;
		}
		if (now_s() < ui.next_tick)
			continue;
		ui.next_tick = now_s() + ctx->opts.delay_s;
		if (ui.paused)
			continue;
		if (kt_tick(ctx) == -ENOMEM)
			return KT_EXIT_FAIL;
		if (ctx->opts.count >= 0 && ++ticks >= ctx->opts.count)
			break;
	}
	return KT_EXIT_OK;
}

static void curses_fini(struct kt_ctx *ctx)
{
	(void)ctx;
	kt_curses_restore();
}

const struct kt_view kt_view_curses = {
	.init = curses_init,
	.loop = curses_loop,
	.fini = curses_fini,
};
