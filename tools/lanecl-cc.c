/* lanecl-cc: LaneCL's offline compiler.
 *
 *   lanecl-cc [options] file.cl [-o out.bin]   build (or -c: compile) to a LaneCL binary
 *   lanecl-cc --link a.bin b.bin ... -o out.bin [--create-library]
 *   lanecl-cc --prepare-builtins in.bc -o out.bc   (build time: the builtins library)
 *
 * Options: --build-options "...", or any -D, -I, -cl-..., -w, -Werror, -g directly;
 * --emit-llvm (SPIR IR of the program), --emit-llvm-opt (the optimized host IR),
 * --emit-asm (assembly), --report (per kernel: vector width, regions,
 * work-group context bytes, why a region stayed scalar, arguments);
 * device: --cpu NAME --features STR --simd-bits N --max-wg N --cl-ext LIST
 * (default: the host, or what LANECL_CPU and LANECL_SIMD_BITS make of it, as
 * for the runtime's device); --print-target prints the CPU, SIMD width and
 * features the compiler targets for that device.
 * The build log goes to stderr.  Exit status: 0 ok, 1 failed, 2 usage.
 */
#include "compiler/lanecl_cc.h"
#include "config/lanecl_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
  fprintf(f,
          "usage: lanecl-cc [options] file.cl [-o out.bin]\n"
          "       lanecl-cc --link in.bin... [--create-library] [--link-options \"...\"] -o out.bin\n"
          "       lanecl-cc --prepare-builtins in.bc -o out.bc\n"
          "options:\n"
          "  --build-options \"...\"  OpenCL build options (also -D.. -I.. -cl-.. -w -Werror -g directly)\n"
          "  -c                     compile only (clCompileProgram: an object, no native code)\n"
          "  --emit-llvm            print the program's SPIR LLVM IR\n"
          "  --emit-llvm-opt        print the optimized host LLVM IR (after work-group generation and O3)\n"
          "  --emit-asm             print the kernels' assembly\n"
          "  --report               per kernel: vector width, regions, context bytes, arguments\n"
          "  --cpu NAME --features STR --simd-bits N --max-wg N --cl-ext LIST   the device\n"
          "                         (--features \"\": the named CPU's own features)\n"
          "  --print-target         print the target chosen for the device: cpu, simd-bits, features\n"
          "  -o FILE                output file (default: file.bin, or stdout for --emit-*)\n");
}

static char *read_text(const char *path, size_t *size)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 65536, n = 0;
  char *buf = malloc(cap + 1);
  while (buf) {
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n < cap)
      break;
    cap *= 2;
    char *nb = realloc(buf, cap + 1);
    if (!nb) {
      free(buf);
      buf = NULL;
    }
    buf = nb;
  }
  fclose(f);
  if (buf) {
    buf[n] = 0;
    if (size)
      *size = n;
  }
  return buf;
}

static int write_out(const char *path, const void *data, size_t size)
{
  FILE *f = path ? fopen(path, "wb") : stdout;
  if (!f) {
    perror(path);
    return 1;
  }
  int bad = fwrite(data, 1, size, f) != size;
  if (path)
    bad |= fclose(f) != 0;
  if (bad)
    fprintf(stderr, "lanecl-cc: cannot write %s\n", path ? path : "stdout");
  return bad;
}

static const char *kind_name(uint32_t k)
{
  static const char *const names[] = {"scalar", "buffer", "local", "sampler", "image"};
  return k < 5 ? names[k] : "?";
}

static const char *as_name(uint32_t a)
{
  static const char *const names[] = {"private", "global", "constant", "local", "generic"};
  return a < 5 ? names[a] : "?";
}

static void print_report(const cc_binary *bin, const cc_device_desc *dev)
{
  static const char *const bin_kinds[] = {"?", "object", "library", "executable"};
  printf("%s, %u kernel%s, %zu bytes of IR, %zu bytes of native code\n",
         bin_kinds[bin->kind <= 3 ? bin->kind : 0], bin->nkernels, bin->nkernels == 1 ? "" : "s",
         bin->bitcode.size, bin->native.size);
  for (uint32_t i = 0; i < bin->nkernels; i++) {
    const cc_kernel_info *k = &bin->kernels[i];
    printf("\nkernel %s\n", k->name);
    if (bin->kind == CC_BIN_EXECUTABLE) {
      printf("  vector width: %u lane%s%s\n", k->simd_width, k->simd_width == 1 ? "" : "s",
             k->simd_width <= 1 ? " (scalar)" : "");
      printf("  sub-group size: %u%s\n", k->sub_group_size,
             k->reqd_sub_group_size ? " (intel_reqd_sub_group_size)" : "");
      printf("  regions: %u%s\n", k->nregions, k->uses_barriers ? " (barriers or collectives)" : "");
      printf("  context bytes kept across barriers: %llu per work-item, %llu per work-group of %zu\n",
             (unsigned long long)k->frame_bytes,
             (unsigned long long)(k->frame_bytes * dev->max_work_group_size), dev->max_work_group_size);
    }
    printf("  static __local memory: %llu bytes; private memory (estimate): %llu bytes\n",
           (unsigned long long)k->local_mem_bytes, (unsigned long long)k->private_mem_bytes);
    if (k->attributes && k->attributes[0])
      printf("  attributes: %s\n", k->attributes);
    for (uint32_t a = 0; a < k->nargs; a++) {
      const cc_kernel_arg *arg = &k->args[a];
      printf("  arg %u: %s %s  [%s, %s, %u bytes, align %u%s%s%s%s]\n", a, arg->type_name, arg->name,
             kind_name(arg->kind), as_name(arg->addr_space), arg->size, arg->align,
             arg->type_qual & CC_TQ_CONST ? ", const" : "", arg->type_qual & CC_TQ_RESTRICT ? ", restrict" : "",
             arg->type_qual & CC_TQ_VOLATILE ? ", volatile" : "",
             arg->access_qual == CC_ACCESS_READ_ONLY    ? ", read_only"
             : arg->access_qual == CC_ACCESS_WRITE_ONLY ? ", write_only"
             : arg->access_qual == CC_ACCESS_READ_WRITE ? ", read_write"
                                                        : "");
    }
    if (k->report && k->report[0]) {
      printf("  vectorizer:\n    ");
      for (const char *p = k->report; *p; p++) {
        putchar(*p);
        if (*p == '\n' && p[1])
          printf("    ");
      }
      if (k->report[strlen(k->report) - 1] != '\n')
        putchar('\n');
    }
  }
}

/* The runtime's device width (runtime/device.c): the host's, or
 * LANECL_SIMD_BITS where that is narrower. */
static int default_simd_bits(void)
{
  __builtin_cpu_init();
  int bits = 128;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
    bits = 512;
  else if (__builtin_cpu_supports("avx2"))
    bits = 256;
  const char *sb = lc_config_str(LC_SIMD_BITS); /* 128, 256, 512 or NULL */
  int want = sb ? atoi(sb) : 0;
  return (want == 128 || want == 256) && want < bits ? want : bits;
}

/* Appends opt to a growing option string. */
static int append_opt(char **s, const char *opt)
{
  size_t n = *s ? strlen(*s) : 0;
  char *ns = realloc(*s, n + strlen(opt) + 4);
  if (!ns)
    return 1;
  *s = ns;
  sprintf(ns + n, "%s%s", n ? " " : "", opt);
  return 0;
}

int main(int argc, char **argv)
{
  cc_device_desc dev = {NULL, NULL, 0, 1024, NULL};
  const char *input = NULL, *out = NULL, *prepare = NULL, *link_options = NULL;
  const char **link_inputs = NULL;
  size_t nlink = 0;
  char *options = NULL;
  int compile_only = 0, emit = -1, report = 0, link = 0, create_library = 0, print_target = 0;
  lc_config_report(); /* bad values, unknown names: under LANECL_DEBUG */
  const char *env_cpu = lc_config_str(LC_CPU);
  if (env_cpu)
    dev.cpu_name = env_cpu;

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *next = i + 1 < argc ? argv[i + 1] : NULL;
    int need = !strcmp(a, "-o") || !strcmp(a, "--build-options") || !strcmp(a, "--cpu") ||
               !strcmp(a, "--features") || !strcmp(a, "--simd-bits") || !strcmp(a, "--max-wg") ||
               !strcmp(a, "--cl-ext") || !strcmp(a, "--prepare-builtins") || !strcmp(a, "--link-options");
    if (need && !next) {
      fprintf(stderr, "lanecl-cc: %s needs a value\n", a);
      return 2;
    }
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "-o")) {
      out = argv[++i];
    } else if (!strcmp(a, "--build-options")) {
      if (append_opt(&options, argv[++i]))
        return 1;
    } else if (!strcmp(a, "--link-options")) {
      link_options = argv[++i];
    } else if (!strcmp(a, "--cpu")) {
      dev.cpu_name = argv[++i];
    } else if (!strcmp(a, "--features")) {
      dev.cpu_features = argv[++i];
    } else if (!strcmp(a, "--simd-bits")) {
      dev.simd_bits = (unsigned)strtoul(argv[++i], NULL, 0);
    } else if (!strcmp(a, "--max-wg")) {
      dev.max_work_group_size = strtoul(argv[++i], NULL, 0);
    } else if (!strcmp(a, "--cl-ext")) {
      dev.cl_ext = argv[++i];
    } else if (!strcmp(a, "--prepare-builtins")) {
      prepare = argv[++i];
    } else if (!strcmp(a, "-c")) {
      compile_only = 1;
    } else if (!strcmp(a, "--link")) {
      link = 1;
    } else if (!strcmp(a, "--create-library")) {
      create_library = 1;
    } else if (!strcmp(a, "--emit-llvm")) {
      emit = 0;
    } else if (!strcmp(a, "--emit-asm")) {
      emit = 1;
    } else if (!strcmp(a, "--emit-llvm-opt")) {
      emit = 2;
    } else if (!strcmp(a, "--report")) {
      report = 1;
    } else if (!strcmp(a, "--print-target")) {
      print_target = 1;
    } else if (!strncmp(a, "-D", 2) || !strncmp(a, "-I", 2)) {
      /* "-D X" and "-DX" both */
      if ((!a[2] && (!next || append_opt(&options, a) || append_opt(&options, argv[++i]))) ||
          (a[2] && append_opt(&options, a))) {
        fprintf(stderr, "lanecl-cc: %s needs a value\n", a);
        return 2;
      }
    } else if (!strncmp(a, "-cl-", 4) || !strcmp(a, "-w") || !strcmp(a, "-Werror") || !strcmp(a, "-g")) {
      if (append_opt(&options, a))
        return 1;
    } else if (a[0] == '-') {
      fprintf(stderr, "lanecl-cc: unknown option %s\n", a);
      usage(stderr);
      return 2;
    } else if (link) {
      const char **li = realloc(link_inputs, (nlink + 1) * sizeof(*li));
      if (!li)
        return 1;
      link_inputs = li;
      link_inputs[nlink++] = a;
    } else if (!input) {
      input = a;
    } else {
      fprintf(stderr, "lanecl-cc: more than one input (%s, %s)\n", input, a);
      return 2;
    }
  }

  if (prepare) {
    if (!out) {
      fprintf(stderr, "lanecl-cc: --prepare-builtins needs -o out.bc\n");
      return 2;
    }
    char *log = NULL;
    int rc = cc_prepare_builtins_file(prepare, out, &log);
    if (log && log[0])
      fprintf(stderr, "%s\n", log);
    free(log);
    return rc == CC_OK ? 0 : 1;
  }
  int bits_given = dev.simd_bits != 0;
  if (!dev.simd_bits)
    dev.simd_bits = (unsigned)default_simd_bits();
  /* LANECL_SIMD_BITS wider than the host (an AVX-512 target on an AVX2
   * host): the CPU that LANECL_CPU names, with its own features and
   * AVX-512 (the code is not meant to run here). */
  const char *env_bits = lc_config_str(LC_SIMD_BITS);
  if (!bits_given && env_bits && env_cpu && dev.cpu_name == env_cpu && !dev.cpu_features &&
      (unsigned)atoi(env_bits) > dev.simd_bits && atoi(env_bits) == 512) {
    dev.simd_bits = 512;
    dev.cpu_features = "+avx512f,+avx512bw,+avx512dq,+avx512vl";
  }
  if (print_target) {
    char *cpu = NULL, *features = NULL;
    if (cc_get_api()->target(&dev, &cpu, &features) != CC_OK)
      return 1;
    printf("cpu %s\nsimd-bits %u\nfeatures %s\n", cpu, dev.simd_bits, features);
    free(cpu);
    free(features);
    if (!input && !nlink)
      return 0;
  }
  if (!input && !nlink) {
    usage(stderr);
    return 2;
  }

  const cc_api *api = cc_get_api();
  cc_blob bin = {0};
  char *log = NULL;
  int rc;
  if (link) {
    cc_blob *ins = calloc(nlink, sizeof(*ins));
    if (!ins)
      return 1;
    rc = CC_OK;
    for (size_t i = 0; i < nlink && rc == CC_OK; i++) {
      ins[i].data = read_text(link_inputs[i], &ins[i].size);
      if (!ins[i].data) {
        perror(link_inputs[i]);
        rc = CC_INVALID_BINARY;
      }
    }
    if (rc == CC_OK)
      rc = api->link(&dev, ins, nlink, link_options ? link_options : "", create_library, &bin, &log);
    for (size_t i = 0; i < nlink; i++)
      free(ins[i].data);
    free(ins);
  } else {
    char *source = read_text(input, NULL);
    if (!source) {
      perror(input);
      return 1;
    }
    if (compile_only || emit == 0)
      rc = api->compile(&dev, source, options ? options : "", NULL, 0, &bin, &log);
    else
      rc = api->build(&dev, source, options ? options : "", &bin, &log);
    free(source);
  }
  if (log && log[0])
    fprintf(stderr, "%s", log);
  free(log);
  free(link_inputs);
  free(options);
  if (rc != CC_OK) {
    fprintf(stderr, "lanecl-cc: %s\n", rc == CC_INVALID_OPTIONS ? "invalid options" : "build failed");
    return 1;
  }

  int status = 0;
  if (emit >= 0) {
    char *text = NULL;
    rc = api->disassemble(&dev, &bin, emit, &text);
    if (rc != CC_OK) {
      fprintf(stderr, "%s", text ? text : "lanecl-cc: disassembly failed\n");
      status = 1;
    } else {
      status = write_out(out, text, strlen(text));
    }
    free(text);
  }
  if (report) {
    cc_binary parsed;
    if (cc_binary_read(bin.data, bin.size, &parsed) == CC_OK) {
      print_report(&parsed, &dev);
      cc_binary_free(&parsed);
    } else {
      status = 1;
    }
  }
  if (emit < 0 && (out || !report)) {
    char *def = NULL;
    if (!out) {
      const char *base = input ? input : "a.cl";
      const char *slash = strrchr(base, '/');
      base = slash ? slash + 1 : base;
      def = malloc(strlen(base) + 5);
      if (!def)
        return 1;
      strcpy(def, base);
      char *dot = strrchr(def, '.');
      strcpy(dot ? dot : def + strlen(def), ".bin");
    }
    status |= write_out(out ? out : def, bin.data, bin.size);
    free(def);
  }
  cc_blob_free(&bin);
  return status;
}
