// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/vdso-table.h"

#include <elf.h>
#include <inttypes.h>
#include <jansson.h>
#include <string.h>

#include "basic/json.h"
#include "basic/strbuf.h"
#include "basic/table.h"
#include "basic/text.h"
#include "basic/util.h"
#include "probe/catalog.h"

#ifndef EM_LOONGARCH
#define EM_LOONGARCH 258
#endif

static const char *machine_name(uint16_t machine)
{
	static const struct {
		uint16_t em;
		const char *name;
	} machines[] = {
		{ EM_X86_64, "x86_64" }, { EM_386, "i386" },
		{ EM_AARCH64, "aarch64" }, { EM_ARM, "arm" },
		{ EM_PPC64, "ppc64" }, { EM_PPC, "ppc" },
		{ EM_S390, "s390" }, { EM_RISCV, "riscv" },
		{ EM_LOONGARCH, "loongarch" }, { EM_MIPS, "mips" },
		{ EM_SPARCV9, "sparc64" }, { EM_SPARC, "sparc" },
	};

	/* The build's own name is more precise ("ppc64le", "riscv64"). */
	if (machine == vdso_arch_names()->machine)
		return vdso_arch_names()->arch;
	for (size_t i = 0; i < ARRAY_SIZE(machines); i++)
		if (machines[i].em == machine)
			return machines[i].name;
	return "unknown";
}

static const char *type_name(unsigned type)
{
	switch (type) {
	case STT_FUNC:
		return "func";
	case STT_OBJECT:
		return "object";
	case STT_NOTYPE:
		return "notype";
	case STT_GNU_IFUNC:
		return "ifunc";
	default:
		return "other";
	}
}

/* ---- expected names -------------------------------------------------- */

struct expected {
	const char *api;	/* "clock_gettime" */
	const char *name;	/* "__vdso_clock_gettime" */
};

/*
 * The names this architecture's vDSO should export, in the catalogue's
 * order; returns the count. The y2038 entry points are left out, as they
 * were before the list came from the catalogue: listing them is a change
 * of output of its own.
 */
static size_t expected_names(struct expected out[API_COUNT])
{
	size_t k = 0;

	for (int api = 0; api < API_COUNT; api++) {
		const char *sym = catalog_vdso_symbol(api);

		if (sym && !catalog_apis[api].time64)
			out[k++] = (struct expected){ catalog_apis[api].name, sym };
	}
	return k;
}

/* Expected names only make sense for an image of this build's machine. */
static bool names_apply(const struct vdso_image *img)
{
	const struct vdso_names *n = vdso_arch_names();

	return n->version && img->machine == n->machine;
}

/* ---- table output ---------------------------------------------------- */

static int add_symbol(const struct vdso_symbol *s, void *ctx)
{
	struct table *t = ctx;
	char offset[32];
	struct strbuf type = STRBUF_INIT;

	snprintf(offset, sizeof(offset), "%#" PRIx64, s->offset);
	table_add_text(t, s->name);
	table_add_text(t, s->version);
	table_add_int_shown(t, (int64_t)s->offset, offset);
	table_add_int(t, (int64_t)s->size);
	strbuf_addf(&type, "%s%s", type_name(s->type), s->bind == STB_WEAK ? " (weak)" : "");
	table_add_text(t, type.buf);
	strbuf_release(&type);
	return 0;
}

/* The image's symbols (names from a file: escaped as they are printed). */
static struct table *symbol_table(const struct vdso_image *img)
{
	struct table *t = table_new();

	table_add_column(t, "symbol", "SYMBOL", TABLE_TEXT, NULL);
	table_add_column(t, "version", "VERSION", TABLE_TEXT, NULL);
	table_add_column(t, "offset", "OFFSET", TABLE_INT, NULL);
	table_add_column(t, "size", "SIZE", TABLE_INT, NULL);
	table_add_column(t, "type", "TYPE", TABLE_TEXT, NULL);
	vdso_foreach_symbol(img, add_symbol, t);
	return t;
}

static void print_expected_table(FILE *f, const struct vdso_image *img)
{
	const struct vdso_names *n = vdso_arch_names();
	struct expected e[API_COUNT];
	size_t count = expected_names(e);
	struct table *t;

	if (!names_apply(img)) {
		fprintf(f, "\nExpected names: not checked, the image is for %s and this build for %s\n",
		       machine_name(img->machine), n->arch);
		return;
	}
	fprintf(f, "\nExpected names for %s (version %s):\n", n->arch, n->version);
	/* A list under its heading, as before: no titles, indented. */
	t = table_new();
	table_add_text_columns(t, "name", "resolves", NULL);
	table_set_titles(t, false);
	table_set_indent(t, 2);
	for (size_t i = 0; i < count; i++) {
		table_add_text(t, e[i].name);
		table_add_text(t, vdso_lookup(img, e[i].name, n->version) ?
			       "resolves" : "not exported");
	}
	table_print(f, t, FORMAT_TABLE);
	table_free(t);
}

void vdso_table_print(FILE *f, const struct vdso_image *img, const char *file)
{
	struct table *t = symbol_table(img);

	if (file) {
		text_line(f, "%s: %zu bytes, %s", file, img->len,
			  machine_name(img->machine));
		fputc('\n', f);
	} else {
		fprintf(f, "vDSO at %p: %zu bytes, %s\n\n", (const void *)img->base,
		       img->len, machine_name(img->machine));
	}
	table_print(f, t, FORMAT_TABLE);
	table_free(t);
	print_expected_table(f, img);
}

/* ---- JSON output ----------------------------------------------------- */

static int add_json_symbol(const struct vdso_symbol *s, void *ctx)
{
	json_t *obj = json_object();

	json_object_set_new(obj, "name", json_string(s->name));
	json_object_set_new(obj, "version", json_string(s->version));
	json_object_set_new(obj, "offset", json_integer((json_int_t)s->offset));
	json_object_set_new(obj, "size", json_integer((json_int_t)s->size));
	json_object_set_new(obj, "type", json_string(type_name(s->type)));
	json_object_set_new(obj, "binding",
			    json_string(s->bind == STB_WEAK ? "weak" : "global"));
	json_array_append_new(ctx, obj);
	return 0;
}

static json_t *expected_json(const struct vdso_image *img)
{
	const struct vdso_names *n = vdso_arch_names();
	json_t *arr = json_array();
	struct expected e[API_COUNT];
	size_t count = expected_names(e);

	if (!names_apply(img))
		return arr;
	for (size_t i = 0; i < count; i++) {
		json_t *obj = json_object();

		json_object_set_new(obj, "api", json_string(e[i].api));
		json_object_set_new(obj, "name", json_string(e[i].name));
		json_object_set_new(obj, "version", json_string(n->version));
		json_object_set_new(obj, "resolves",
				    json_boolean(vdso_lookup(img, e[i].name, n->version)));
		json_array_append_new(arr, obj);
	}
	return arr;
}

int vdso_json_print(FILE *f, const struct vdso_image *img, const char *file)
{
	json_t *root = json_object(), *symbols = json_array();
	char base[32];
	int rc;

	json_object_set_new(root, "arch", json_string(machine_name(img->machine)));
	if (file) {
		json_object_set_new(root, "file", json_string(file));
		json_object_set_new(root, "base", json_null());
	} else {
		snprintf(base, sizeof(base), "%#" PRIxPTR, (uintptr_t)img->base);
		json_object_set_new(root, "base", json_string(base));
	}
	json_object_set_new(root, "length", json_integer((json_int_t)img->len));
	vdso_foreach_symbol(img, add_json_symbol, symbols);
	json_object_set_new(root, "symbols", symbols);
	json_object_set_new(root, "expected", expected_json(img));
	rc = json_print(f, root);
	json_decref(root);
	return rc;
}
