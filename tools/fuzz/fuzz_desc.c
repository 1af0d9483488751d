// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer: a hostile robot description or preference file through dcmd's
 * loader (desc_load(): XML, schema, Parts, preferences, merge), then, when
 * it loads, through the kernel's own model as dcmd's dry run pushes it
 * (desc_push() to the dry-run sink: every step and dcm_model_check()).
 *
 * Built twice: as the Device.xml (fuzz_desc_device), and as the chest
 * preference file over the shipped Device.xml (fuzz_desc_prefs, with
 * FUZZ_PREFS). DCM_DATA is the directory of the shipped files.
 * FUZZ_VERBOSE=1 says what became of each input (run it with -runs=0 on
 * files to see why they are refused).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "desc.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void quiet(void *arg, int level, const char *msg)
{
	(void)arg;
	(void)level;
	(void)msg;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct desc_errors errs;
	struct desc_opts o;
	struct desc_push_stats st;
	struct desc *d = NULL;
	char path[64], err[256];
	int fd;

	fd = memfd_create("fuzz", MFD_CLOEXEC);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	memset(&o, 0, sizeof(o));
	o.device_type_ok = desc_kernel_device_type_ok;
	o.subdevice_type_ok = desc_kernel_subdevice_type_ok;
	o.log = quiet;
#ifdef FUZZ_PREFS
	o.device_xml = DCM_DATA "/Device.xml";
	o.body_xml = path;
	o.prefs_rng = DCM_DATA "/preferences.rng";
#else
	o.device_xml = path;
#endif
	desc_errors_init(&errs);
	if (!desc_load(&o, &d, &errs)) {
		struct desc_dry_sink *s = desc_dry_sink_new();
		int r = -1;

		if (s) {
			r = desc_push(d, &desc_dry_sink_ops, s, &st, err, sizeof(err));
			desc_dry_sink_free(s);
		}
		if (getenv("FUZZ_VERBOSE"))
			fprintf(stderr, "loaded; dry run %s%s\n", r ? "refused: " : "ok",
				r ? err : "");
		desc_free(d);
	} else if (getenv("FUZZ_VERBOSE")) {
		char *t = desc_errors_text(&errs);

		fprintf(stderr, "refused: %s", t ? t : "?\n");
		free(t);
	}
	desc_errors_free(&errs);
	close(fd);
	return 0;
}
