// wlr-bench: times wlr_scene_node_at (wlroots 0.15) on a scene that core-bench describes,
// so both libraries hit-test identical trees at identical points in one run.
//
// Built by the Makefile with cc and pkg-config wlroots, never by SwiftPM: the library
// itself never needs wlroots. wlr_scene 0.15 needs no renderer or backend for this: trees
// and solid rects are enough, and rects are what wlr_scene_node_at hit-tests.
//
// Input (text, written by core-bench): a line "nodes N", then N lines
//   parent layer x y w h nrects [rx ry rw rh]...
// (parent -1 is the scene root; layer 0 above, 1 below the parent's own content; a node's
// input area is its rects, or its w x h bounds when nrects is 0 and w, h > 0; a node with
// neither is a plain container), then "points M" and M lines "x y".
// Output: "ns_per_query hits checksum", checksum = sum over points i of (hit + 1) * (i + 1),
// hit being the index of the node hit, -1 for none; core-bench compares it with its own.
// With a second argument N: N queries (cycling through the points) and no timing, for
// callgrind's instruction counts (core-bench --hit-test SCENE N --write-scene FILE).
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <wlr/types/wlr_scene.h>

struct node {
	struct wlr_scene_tree *tree;
	// The lowest node of the parent's own content: below-children go directly under it.
	struct wlr_scene_node *content;
};

static uint64_t now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static const float color[4] = {1, 1, 1, 1};

static int cmp_double(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: wlr-bench SCENE [QUERIES]\n");
		return 2;
	}
	FILE *in = fopen(argv[1], "r");
	if (!in) {
		perror(argv[1]);
		return 1;
	}
	struct wlr_scene *scene = wlr_scene_create();
	int count;
	if (fscanf(in, " nodes %d", &count) != 1) return 1;
	struct node *nodes = calloc((size_t)count, sizeof(*nodes));
	for (int i = 0; i < count; i++) {
		int parent, layer, x, y, w, h, nrects;
		if (fscanf(in, "%d %d %d %d %d %d %d", &parent, &layer, &x, &y, &w, &h, &nrects) != 7) return 1;
		struct wlr_scene_node *parent_node = parent < 0 ? &scene->node : &nodes[parent].tree->node;
		struct node *n = &nodes[i];
		n->tree = wlr_scene_tree_create(parent_node);
		wlr_scene_node_set_position(&n->tree->node, x, y);
		if (layer == 1) {
			struct node *p = &nodes[parent];
			if (!p->content) {
				// An empty marker (0 x 0: never hit) where the parent's content would be.
				p->content = &wlr_scene_rect_create(&p->tree->node, 0, 0, color)->node;
				wlr_scene_node_lower_to_bottom(p->content);
			}
			wlr_scene_node_place_below(&n->tree->node, p->content);
		}
		for (int r = 0; r < (nrects ? nrects : (w > 0 && h > 0)); r++) {
			int rx = 0, ry = 0, rw = w, rh = h;
			if (nrects && fscanf(in, "%d %d %d %d", &rx, &ry, &rw, &rh) != 4) return 1;
			struct wlr_scene_rect *rect = wlr_scene_rect_create(&n->tree->node, rw, rh, color);
			wlr_scene_node_set_position(&rect->node, rx, ry);
			rect->node.data = (void *)(intptr_t)(i + 1);
			if (!n->content) n->content = &rect->node;
		}
	}
	int npoints;
	if (fscanf(in, " points %d", &npoints) != 1) return 1;
	double *px = malloc(sizeof(double) * (size_t)npoints), *py = malloc(sizeof(double) * (size_t)npoints);
	for (int i = 0; i < npoints; i++) {
		if (fscanf(in, "%lf %lf", &px[i], &py[i]) != 2) return 1;
	}
	fclose(in);

	if (argc == 3) {
		long queries = strtol(argv[2], NULL, 10);
		uintptr_t hits_n = 0;
		for (long q = 0; q < queries; q++) hits_n += wlr_scene_node_at(&scene->node, px[q % npoints], py[q % npoints], NULL, NULL) != NULL;
		printf("%lu\n", (unsigned long)hits_n);
		return 0;
	}

	// Correctness first: which node each point hits, summed into the checksum.
	uint64_t checksum = 0;
	int hits = 0;
	for (int i = 0; i < npoints; i++) {
		double sx, sy;
		struct wlr_scene_node *hit = wlr_scene_node_at(&scene->node, px[i], py[i], &sx, &sy);
		int64_t index = hit ? (int64_t)(intptr_t)hit->data - 1 : -1;
		if (hit) hits++;
		checksum += (uint64_t)(index + 1) * (uint64_t)(i + 1);
	}

	// Then time: enough passes over the points for 50 ms a run, median of 7 runs.
	uintptr_t sink = 0;
	uint64_t start = now_ns();
	int passes = 0;
	do {
		for (int i = 0; i < npoints; i++) sink += (uintptr_t)wlr_scene_node_at(&scene->node, px[i], py[i], NULL, NULL);
		passes++;
	} while (now_ns() - start < 50000000u);
	double runs[7];
	for (int r = 0; r < 7; r++) {
		uint64_t t0 = now_ns();
		for (int p = 0; p < passes; p++) {
			for (int i = 0; i < npoints; i++) sink += (uintptr_t)wlr_scene_node_at(&scene->node, px[i], py[i], NULL, NULL);
		}
		runs[r] = (double)(now_ns() - t0) / ((double)passes * npoints);
	}
	qsort(runs, 7, sizeof(double), cmp_double);
	printf("%.2f %d %llu\n", runs[3], hits, (unsigned long long)checksum);
	if (sink == 42) fprintf(stderr, " ");
	return 0;
}
