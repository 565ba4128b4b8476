/* Tests for deliveries (src/game/jobs.c) on the default seed's home island: the walk time along
 * the paths, job boards drawn from the seeded stream (the same seed and count, the same board;
 * offers only of cargo the place has, to places that want it), and the delivery state machine:
 * take, fly, land, stop -> delivered with its time, only at the destination, only once stopped. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "game/delivery.h"
#include "game/jobs.h"
#include "game/menu.h"

#define SEED 20261129ull

static MemBudget g_mem;
static GameHome g_home;

static int setup(void **state) {
    (void)state;
    SkyError err = {0};
    if (!mem_budget_init(&g_mem, 64u << 20, &err)) return -1;
    if (!game_home_boot(&g_home, &g_mem, NULL, SEED, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    return 0;
}

static int teardown(void **state) {
    (void)state;
    mem_budget_release(&g_mem);
    return 0;
}

/* Steps of dt at one spot (world metres), on the ground or not, at a speed: the events seen. */
static uint32_t hold(Jobs *j, double x, double z, float speed, bool ground, float seconds) {
    uint32_t ev = 0;
    for (float t = 0.0f; t < seconds; t += SIM_STEP) ev |= jobs_step(j, x, z, speed, ground, SIM_STEP);
    return ev;
}

static void at_site(const Jobs *j, uint32_t s, double *x, double *z) { jobs_site_pos(j, s, x, z); }

/* The walk between two places: symmetric, zero to itself, a path edge's own minutes at most,
 * no shorter than any detour through a third place (a shortest path), and within the round trip. */
static void test_walk_minutes(void **state) {
    (void)state;
    const Island *isl = g_home.island;
    assert_int_equal(jobs_walk_minutes(isl, 3, 3), 0);
    assert_int_equal(jobs_walk_minutes(isl, 0, 999), UINT32_MAX);
    for (uint32_t e = 0; e < isl->n_edges; e++) {
        const IslandEdge *ed = &isl->edges[e];
        if (!ed->path) continue;
        assert_true(jobs_walk_minutes(isl, ed->a, ed->b) <= ed->minutes);
    }
    uint32_t far = 0;
    for (uint32_t a = 0; a < isl->n_sites; a++)
        for (uint32_t b = 0; b < isl->n_sites; b++) {
            uint32_t ab = jobs_walk_minutes(isl, a, b);
            assert_true(ab != UINT32_MAX);   /* the paths join every place */
            assert_int_equal(ab, jobs_walk_minutes(isl, b, a));
            for (uint32_t c = 0; c < isl->n_sites; c += 5)
                assert_true(ab <= jobs_walk_minutes(isl, a, c) + jobs_walk_minutes(isl, c, b));
            if (a == isl->base && ab > far) far = ab;
        }
    /* the generator's own farthest walk from the base is the same Dijkstra's */
    assert_int_equal(2 * far, isl->round_trip_minutes);
    char t[32];
    jobs_format_walk(190, t, sizeof t);
    assert_string_equal(t, "3 h 10 min");
    jobs_format_walk(45, t, sizeof t);
    assert_string_equal(t, "45 min");
    jobs_format_walk(120, t, sizeof t);
    assert_string_equal(t, "2 h");
    jobs_format_time(161.2, t, sizeof t);
    assert_string_equal(t, "2:41");
    jobs_format_time(3725.0, t, sizeof t);
    assert_string_equal(t, "1:02:05");
}

/* A place with cargo: the base's sandy beach has the post. */
static void test_board_drawn_from_the_stream(void **state) {
    (void)state;
    static Jobs a, b, c;
    const Island *isl = g_home.island;
    const IslandCodex *cx = g_home.codex;
    double x, z;
    jobs_init(&a, &g_home, SEED);
    jobs_init(&b, &g_home, SEED);
    jobs_init(&c, &g_home, SEED + 1);
    at_site(&a, isl->base, &x, &z);
    assert_true(hold(&a, x, z, 0.0f, true, 1.5f) & JOB_EV_STOPPED);
    hold(&b, x, z, 0.0f, true, 1.5f);
    hold(&c, x, z, 0.0f, true, 1.5f);
    assert_int_equal(a.stopped_at, (int)isl->base);
    assert_true(a.n_board >= 1);
    assert_int_equal(a.n_board, b.n_board);
    assert_memory_equal(a.board, b.board, sizeof a.board[0] * a.n_board);   /* same seed, same count: same board */
    for (uint32_t k = 0; k < a.n_board; k++) {
        const JobOffer *o = &a.board[k];
        assert_int_equal(o->from, isl->base);
        assert_true(o->to != isl->base && o->to < isl->n_sites);
        assert_true(cx->cargo[o->cargo].from_mask & (1u << isl->sites[isl->base].type));
        assert_true(cx->cargo[o->cargo].to_mask & (1u << isl->sites[o->to].type));
        assert_int_equal(o->walk_minutes, jobs_walk_minutes(isl, o->from, o->to));
        assert_true(g_home.field.n_strips > 0);   /* the default seed's island has strips: jobs go to them */
        assert_true(jobs_strip_of(&a, o->to) >= 0);
        for (uint32_t m = 0; m < k; m++) assert_false(a.board[m].cargo == o->cargo && a.board[m].to == o->to);
    }
    /* The stream moves on: boards drawn again (roll away and stop again) differ at some point, and
     * the same sequence of stops gives the same sequence of boards. */
    bool differs = false;
    for (int i = 0; i < 8; i++) {
        hold(&a, x, z, 5.0f, true, 0.1f);
        hold(&b, x, z, 5.0f, true, 0.1f);
        hold(&a, x, z, 0.0f, true, 1.5f);
        hold(&b, x, z, 0.0f, true, 1.5f);
        assert_int_equal(a.n_board, b.n_board);
        assert_memory_equal(a.board, b.board, sizeof a.board[0] * a.n_board);
        differs |= a.board[0].to != c.board[0].to || a.board[0].cargo != c.board[0].cargo;
    }
    assert_int_equal(a.drawn, 9);
    assert_true(differs);
    char label[128];
    jobs_offer_label(&a, &a.board[0], label, sizeof label);
    printf("  board at the base: %u offers, first: %s\n", a.n_board, label);
    assert_non_null(strstr(label, " to "));
    assert_non_null(strstr(label, "on foot"));
}

/* Take, fly, land, stop -> delivered; not before stopping, not elsewhere, not in the air. */
static void test_delivery_state_machine(void **state) {
    (void)state;
    static Jobs j;
    const Island *isl = g_home.island;
    double bx, bz, tx, tz;
    jobs_init(&j, &g_home, SEED);
    assert_false(jobs_take(&j, 0));   /* no board up */
    at_site(&j, isl->base, &bx, &bz);
    hold(&j, bx, bz, 0.0f, true, 1.5f);
    assert_true(jobs_take(&j, 0));
    assert_false(jobs_take(&j, JOBS_BOARD_MAX));
    JobOffer job = j.job;
    assert_true(j.carrying);
    at_site(&j, job.to, &tx, &tz);
    /* the takeoff roll closes the board; flying there takes 100 s */
    assert_int_equal(hold(&j, bx, bz, 20.0f, true, 2.0f) & JOB_EV_STOPPED, 0);
    assert_int_equal(j.n_board, 0);
    assert_int_equal(hold(&j, tx, tz, 60.0f, false, 98.0f), 0);
    /* hovering still above it (no wheels on the ground) delivers nothing */
    assert_int_equal(hold(&j, tx, tz, 0.0f, false, 3.0f), 0);
    /* touchdown, rolling out: a touchdown, no delivery until stopped */
    uint32_t ev = hold(&j, tx, tz, 15.0f, true, 4.0f);
    assert_true(ev & JOB_EV_TOUCHDOWN);
    assert_int_equal(ev & JOB_EV_DELIVERED, 0);
    assert_true(j.carrying);
    ev = hold(&j, tx, tz, 0.2f, true, 0.9f);
    assert_int_equal(ev & JOB_EV_DELIVERED, 0);   /* not yet stopped long enough */
    ev = hold(&j, tx, tz, 0.2f, true, 0.2f);
    assert_true(ev & JOB_EV_DELIVERED);
    assert_false(j.carrying);
    assert_int_equal(j.delivered, 1);
    assert_int_equal(j.done.to, job.to);
    printf("  delivered after %.2f s of flight\n", j.done_s);
    assert_true(j.done_s > 107.0 && j.done_s < 108.5);
    char line[96], walk[32];
    jobs_delivered_line(&j, line, sizeof line);
    jobs_format_walk(job.walk_minutes, walk, sizeof walk);
    assert_int_equal(strncmp(line, "delivered in 1:4", 16), 0);
    assert_non_null(strstr(line, walk));
    /* a stop at another place while carrying delivers nothing */
    hold(&j, tx, tz, 20.0f, true, 0.5f);
    hold(&j, bx, bz, 0.0f, true, 1.5f);
    assert_true(jobs_take(&j, 0));
    uint32_t other = j.job.to == isl->base ? (j.job.to + 1) % isl->n_sites : isl->base;
    if (other == j.job.to) other = (other + 1) % isl->n_sites;
    double ox, oz;
    at_site(&j, other, &ox, &oz);
    if (game_home_site_at(&g_home, ox, oz) == (int)other) {
        hold(&j, ox, oz, 30.0f, false, 1.0f);
        ev = hold(&j, ox, oz, 0.0f, true, 2.0f);
        assert_true(ev & JOB_EV_STOPPED);
        assert_int_equal(ev & JOB_EV_DELIVERED, 0);
        assert_true(j.carrying);
    }
    /* a new flight: nothing carried, the stream from its start */
    jobs_reset(&j);
    assert_false(j.carrying);
    assert_int_equal(j.drawn, 0);
}

/* The pause menu's Job board: "Land and stop" in the air; stopped at the base, one item per offer
 * with its label; OK takes it (the item then says so); the pause page opens it. No logbook is
 * kept without a config folder. */
static void test_job_board_page(void **state) {
    (void)state;
    static GameDelivery d;
    static GameConfig cfg;
    static Menu m;
    GameSettings set;
    memset(&set, 0, sizeof set);
    memset(&cfg, 0, sizeof cfg);
    game_delivery_boot(&d, &cfg, &g_home, NULL, SEED, 96.0f);
    assert_false(d.log.active);
    int page = menu_page_find("jobs");
    assert_true(page >= 0 && menu_page_find("logbook") >= 0);
    menu_open(&m, &set, NULL, page);
    assert_int_equal(m.count, 1);
    assert_string_equal(m.items[0].label, "Land and stop at a place");
    double x, z;
    jobs_site_pos(&d.jobs, g_home.island->base, &x, &z);
    hold(&d.jobs, x, z, 0.0f, true, 1.5f);
    menu_open(&m, &set, NULL, page);
    assert_int_equal(m.count, (int)d.jobs.n_board);
    char label[128], place[64], help[200];
    for (uint32_t k = 0; k < d.jobs.n_board; k++) {
        game_home_site_name(&g_home, d.jobs.board[k].to, place, sizeof place);
        snprintf(label, sizeof label, "%s to %s", jobs_cargo_name(&d.jobs, d.jobs.board[k].cargo), place);
        assert_int_equal(strncmp(m.items[k].label, label, sizeof m.items[k].label - 1), 0);
        menu_item_help(&m, &m.items[k], help, sizeof help);
        assert_int_equal(strncmp(help, "on foot ", 8), 0);
    }
    InputState in;
    PlatformEvents ev;
    memset(&in, 0, sizeof in);
    memset(&ev, 0, sizeof ev);
    in.pressed[GA_MENU_OK] = true;
    m.sel = 1;
    menu_update(&m, &in, &ev, 0.016f);
    assert_true(d.jobs.carrying);
    assert_int_equal(d.jobs.job.to, d.jobs.board[1].to);
    assert_int_equal(strncmp(m.items[1].label, "Taken: ", 7), 0);
    menu_open(&m, &set, NULL, MENU_PAGE_PAUSE);
    int found = 0;
    for (int i = 0; i < m.count; i++) found += !strcmp(m.items[i].label, "Job board") || !strcmp(m.items[i].label, "Logbook");
    assert_int_equal(found, 2);
}

/* A strip may reach across a border: stopped anywhere on the destination's strip (each threshold)
 * is stopped at its place, and delivers. */
static void test_delivered_on_the_strip(void **state) {
    (void)state;
    static Jobs j;
    const IslandField *f = &g_home.field;
    double bx, bz;
    jobs_init(&j, &g_home, SEED);
    jobs_site_pos(&j, g_home.island->base, &bx, &bz);
    hold(&j, bx, bz, 0.0f, true, 1.5f);
    assert_true(jobs_take(&j, 0));
    const IslandFieldStrip *st = &f->strips[jobs_strip_of(&j, j.job.to)];
    int crossing = 0;
    for (int end = 0; end < 2; end++) {
        /* 5 m in from the threshold, on the centre line */
        double x = f->centre_x + (end ? st->bx - 5.0 * st->dir_x : st->ax + 5.0 * st->dir_x);
        double z = f->centre_z + (end ? st->bz - 5.0 * st->dir_z : st->az + 5.0 * st->dir_z);
        assert_int_equal(jobs_place_at(&j, x, z, NULL), j.job.to);
        crossing += game_home_site_at(&g_home, x, z) != (int)j.job.to;
    }
    double x = f->centre_x + st->bx - 5.0 * st->dir_x, z = f->centre_z + st->bz - 5.0 * st->dir_z;
    hold(&j, x, z, 20.0f, false, 30.0f);
    uint32_t ev = hold(&j, x, z, 0.0f, true, 1.5f);
    assert_true(ev & JOB_EV_DELIVERED);
    printf("  delivered on the strip of %u (%d of its ends in another place's ground)\n", j.done.to, crossing);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_minutes),
        cmocka_unit_test(test_board_drawn_from_the_stream),
        cmocka_unit_test(test_delivery_state_machine),
        cmocka_unit_test(test_job_board_page),
        cmocka_unit_test(test_delivered_on_the_strip),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
