/* liblanecl.so keeps no dynamic TLS: the ICD loader dlopens it, so a
 * _Thread_local of the default model would reach every worker and queue
 * thread through __tls_get_addr, with a malloc'd block per thread.  ASan's
 * interceptor of __tls_get_addr (GCC <= 13) may record a bogus range for
 * such a block, and LeakSanitizer's tracer then crashes at exit scanning it
 * for the pool's live workers (see pool_tls_worker in scheduler/pool.c).
 * Checked on the ELF file itself: no import of __tls_get_addr, and a TLS
 * segment only with DF_STATIC_TLS (initial-exec). */
#define _GNU_SOURCE 1
#include "tests/testlib.h"

#include <elf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct elf_file {
  unsigned char *data;
  size_t size;
} elf_file;

static elf_file driver_elf(void)
{
  const char *path = getenv("OCL_ICD_FILENAMES");
  if (!path || !*path)
    tl_fail(__FILE__, __LINE__, "OCL_ICD_FILENAMES (the path of liblanecl.so) is not set");
  FILE *f = fopen(path, "rb");
  if (!f)
    tl_fail(__FILE__, __LINE__, "cannot open %s", path);
  elf_file e = {0};
  fseek(f, 0, SEEK_END);
  e.size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  e.data = malloc(e.size);
  ASSERT_TRUE(e.data != NULL);
  ASSERT_EQ(fread(e.data, 1, e.size, f), e.size);
  fclose(f);
  ASSERT_TRUE(e.size >= sizeof(Elf64_Ehdr) && !memcmp(e.data, ELFMAG, SELFMAG));
  ASSERT_EQ(e.data[EI_CLASS], ELFCLASS64);
  return e;
}

/* The section header of type `type`, NULL if none. */
static const Elf64_Shdr *find_section(const elf_file *e, uint32_t type)
{
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)e->data;
  ASSERT_TRUE(eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) <= e->size);
  const Elf64_Shdr *sh = (const Elf64_Shdr *)(e->data + eh->e_shoff);
  for (unsigned i = 0; i < eh->e_shnum; i++)
    if (sh[i].sh_type == type)
      return &sh[i];
  return NULL;
}

TEST(driver_imports_no_tls_get_addr)
{
  elf_file e = driver_elf();
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)e.data;
  const Elf64_Shdr *dynsym = find_section(&e, SHT_DYNSYM);
  ASSERT_TRUE(dynsym != NULL);
  const Elf64_Shdr *strtab = (const Elf64_Shdr *)(e.data + eh->e_shoff) + dynsym->sh_link;
  ASSERT_TRUE(dynsym->sh_offset + dynsym->sh_size <= e.size && strtab->sh_offset + strtab->sh_size <= e.size);
  const Elf64_Sym *sym = (const Elf64_Sym *)(e.data + dynsym->sh_offset);
  size_t n = dynsym->sh_size / sizeof(Elf64_Sym), named = 0;
  for (size_t i = 0; i < n; i++) {
    if (sym[i].st_name >= strtab->sh_size)
      continue;
    const char *name = (const char *)e.data + strtab->sh_offset + sym[i].st_name;
    named += *name != 0;
    if (!strcmp(name, "__tls_get_addr"))
      tl_fail(__FILE__, __LINE__, "liblanecl.so imports __tls_get_addr: a _Thread_local without "
                                  "tls_model(\"initial-exec\")");
  }
  ASSERT_TRUE(named > 10); /* the table was read: the clGetExtensionFunctionAddress & co. */
  free(e.data);
}

TEST(driver_tls_is_static)
{
  elf_file e = driver_elf();
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)e.data;
  ASSERT_TRUE(eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) <= e.size);
  const Elf64_Phdr *ph = (const Elf64_Phdr *)(e.data + eh->e_phoff);
  bool has_tls = false;
  uint64_t flags = 0;
  for (unsigned i = 0; i < eh->e_phnum; i++) {
    if (ph[i].p_type == PT_TLS)
      has_tls = true;
    if (ph[i].p_type == PT_DYNAMIC) {
      ASSERT_TRUE(ph[i].p_offset + ph[i].p_filesz <= e.size);
      const Elf64_Dyn *d = (const Elf64_Dyn *)(e.data + ph[i].p_offset);
      for (size_t k = 0; k < ph[i].p_filesz / sizeof(Elf64_Dyn) && d[k].d_tag != DT_NULL; k++)
        if (d[k].d_tag == DT_FLAGS)
          flags = d[k].d_un.d_val;
    }
  }
  if (has_tls)
    ASSERT_TRUE(flags & DF_STATIC_TLS);
  free(e.data);
}
