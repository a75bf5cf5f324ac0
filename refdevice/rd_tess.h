/* The fixed-function tessellator (spec chapter "Tessellation"): one patch's
 * tessellation levels in, the distinct vertices (their TessCoord) and the
 * primitives over them out, for the triangle, quad and isoline domains
 * with every spacing, both vertex orders and both domain origins, and
 * point mode.  Pure arithmetic, no Vulkan state: refdevice/tests/test_tess.c
 * checks it against the chapter's counts. */
#ifndef RD_TESS_H
#define RD_TESS_H

#include <stdbool.h>
#include <stdint.h>

#include "rd_spirv.h"

/* maxTessellationGenerationLevel: the spec's required minimum. */
#define RD_MAX_TESS_LEVEL 64u

struct rd_tess_params {
	enum rd_tess_domain domain;
	enum rd_tess_spacing spacing;  /* NONE: equal */
	enum rd_tess_order order;      /* NONE: counter-clockwise */
	bool point_mode;
	bool lower_left;               /* VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT */
};

/* A tessellated patch; the arrays grow as needed and are reused from one
 * patch to the next (zero-initialize, free with rd_tess_mesh_free). */
struct rd_tess_mesh {
	float (*coord)[3];             /* TessCoord of vertex i: (u, v, w) or (u, v, 0) */
	uint32_t nverts, cap_verts;
	uint32_t (*prims)[3];          /* vertex indices, prim_verts used */
	uint32_t nprims, cap_prims;
	uint32_t prim_verts;           /* 1 points, 2 lines, 3 triangles */
};

/* Tessellates one patch.  A discarded patch (a relevant outer level <= 0
 * or NaN, "Tessellator Patch Discard") has no vertices and no primitives.
 * Returns 0, or -1 when out of memory. */
int rd_tessellate(const struct rd_tess_params *p, const float outer[4], const float inner[2],
		  struct rd_tess_mesh *m);
void rd_tess_mesh_free(struct rd_tess_mesh *m);

#endif
