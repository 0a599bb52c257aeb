/* Expected outputs of diverge.cl's kernels, written in plain C (build with
 * -ffp-contract=off):  cc -O1 -ffp-contract=off diverge_ref.c -o r && ./r DIR
 * writes DIR/diverge_*.ref. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned dv_hash(unsigned x)
{
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

static FILE *open_ref(const char *dir, const char *name)
{
  char path[512];
  snprintf(path, sizeof(path), "%s/%s.ref", dir, name);
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(1);
  }
  return f;
}

static void put_ints(FILE *f, int index, const int *v, int n)
{
  fprintf(f, "arg %d:\n", index);
  for (int i = 0; i < n; i++)
    fprintf(f, "%d%c", v[i], i % 8 == 7 || i + 1 == n ? '\n' : ' ');
}

static void put_floats(FILE *f, int index, const float *v, int n)
{
  fprintf(f, "arg %d:\n", index);
  for (int i = 0; i < n; i++)
    fprintf(f, "%.9g%c", v[i], i % 8 == 7 || i + 1 == n ? '\n' : ' ');
}

static void dv_while(const char *dir, const char *name, int n)
{
  int *out = calloc(n, 4), *trace = calloc((size_t)n * 20, 4);
  for (int i = 0; i < n; i++) {
    int limit = (int)(dv_hash(i) % 23) - 3;
    int s = 0, k = 0;
    while (k < limit) {
      k++;
      unsigned v = dv_hash(i * 31 + k);
      if ((v & 7) == 0)
        continue;
      if ((v & 63) == 5)
        break;
      s += (int)(v % 100);
      trace[i * 20 + k] = s;
    }
    out[i] = s * 32 + k;
  }
  FILE *f = open_ref(dir, name);
  put_ints(f, 0, out, n);
  put_ints(f, 1, trace, n * 20);
  fclose(f);
  free(out), free(trace);
}

static void dv_nested(const char *dir, int n)
{
  int *out = calloc(n, 4), a[64];
  for (int i = 0; i < 64; i++)
    a[i] = 5 + i * 37; /* the .sim's seq 5 37 */
  for (int i = 0; i < n; i++) {
    int s = 0;
    for (int j = 0; j < i % 5; j++) {
      int m = a[(i + j) % 64];
      int t = 0;
      while (m > 0) {
        t += m & 3;
        m >>= 2;
        if (t > 9)
          break;
      }
      if (t != 0)
        s += 100 / t;
      s = s * 3 + t;
    }
    out[i] = s;
  }
  FILE *f = open_ref(dir, "diverge_nested");
  put_ints(f, 0, out, n);
  fclose(f);
  free(out);
}

static void dv_mandel(const char *dir, const char *name, int w, int h, int maxit)
{
  int *out = calloc((size_t)w * h, 4);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float cr = -2.0f + x * 0.046875f, ci = -1.125f + y * 0.0625f, zr = 0.0f, zi = 0.0f;
      int it = 0;
      while (it < maxit && zr * zr + zi * zi < 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        it++;
      }
      out[y * w + x] = it;
    }
  FILE *f = open_ref(dir, name);
  put_ints(f, 0, out, w * h);
  fclose(f);
  free(out);
}

/* next[k] = k - (k % 4 + 1), or the far end when that is negative */
#define LIST_END (-2000000000)
static int list_next(int k)
{
  return k - (k % 4 + 1) >= 0 ? k - (k % 4 + 1) : LIST_END;
}

static void dv_list(const char *dir, int n)
{
  int *out = calloc(n, 4);
  for (int i = 0; i < n; i++) {
    int p = i % 3 == 0 ? -1 : list_next(i % 64);
    int s = 0, steps = 0;
    while (p >= 0) {
      s += 1000 + 3 * p; /* val: seq 1000 3 */
      p = list_next(p);
      steps++;
    }
    out[i] = s * 64 + steps;
  }
  FILE *f = open_ref(dir, "diverge_list");
  put_ints(f, 0, out, n);
  fclose(f);
  free(out);
}

static void dv_switch(const char *dir, int n)
{
  int *out = calloc(n, 4);
  float *g = calloc(n, 4);
  for (int i = 0; i < n; i++) {
    int x = i, s = 0;
    float gg = 1.0f;
    for (int k = 0; k < (i & 15); k++) {
      switch ((x + k) % 5) {
      case 0: s += 3; break;
      case 1: s *= 2; gg = gg * 0.5f; break;
      case 2: s -= k; break;
      case 3: gg = gg + (float)k; break;
      default: x ^= 5; break;
      }
    }
    out[i] = s;
    g[i] = gg;
  }
  FILE *f = open_ref(dir, "diverge_switch");
  put_ints(f, 0, out, n);
  put_floats(f, 1, g, n);
  fclose(f);
  free(out), free(g);
}

static void dv_barrier(const char *dir, int n, int L)
{
  int *out = calloc(n, 4), *s = calloc(L, 4);
  for (int g = 0; g < n; g += L) {
    for (int l = 0; l < L; l++) {
      int m = (int)dv_hash(g + (l + 1) % L);
      s[l] = 0;
      while (m > 5) {
        s[l] += m & 3;
        m = m / 3 - 1;
      }
    }
    for (int l = 0; l < L; l++)
      out[g + l] = s[l] + s[0];
  }
  FILE *f = open_ref(dir, "diverge_barrier");
  put_ints(f, 0, out, n);
  fclose(f);
  free(out), free(s);
}

static void dv_private(const char *dir, int n)
{
  long long *out = calloc(n, 8);
  double *d = calloc(n, 8);
  for (int i = 0; i < n; i++) {
    int buf[12];
    int m = (int)(dv_hash(i) % 13);
    for (int k = 0; k < m; k++)
      buf[k] = (int)(dv_hash(i + k) & 1023);
    long long s = 0;
    double q = 0.0;
    for (int k = m - 1; k >= 0; k -= 1 + (buf[k] & 1)) {
      s = s * 7 + buf[k];
      q = q * 0.5 + (double)buf[k];
    }
    out[i] = s;
    d[i] = q;
  }
  FILE *f = open_ref(dir, "diverge_private");
  fprintf(f, "arg 0:\n");
  for (int i = 0; i < n; i++)
    fprintf(f, "%lld%c", out[i], i % 8 == 7 || i + 1 == n ? '\n' : ' ');
  fprintf(f, "arg 1:\n");
  for (int i = 0; i < n; i++)
    fprintf(f, "%.17g%c", d[i], i % 8 == 7 || i + 1 == n ? '\n' : ' ');
  fclose(f);
  free(out), free(d);
}

int main(int argc, char **argv)
{
  const char *dir = argc > 1 ? argv[1] : ".";
  dv_while(dir, "diverge_while", 111);
  dv_while(dir, "diverge_while_l16", 256);
  dv_nested(dir, 200);
  dv_mandel(dir, "diverge_mandel", 80, 36, 64);
  dv_mandel(dir, "diverge_mandel_auto", 96, 40, 200);
  dv_list(dir, 100);
  dv_switch(dir, 75);
  dv_barrier(dir, 72, 24);
  dv_private(dir, 90);
  dv_while(dir, "diverge_reqd", 96); /* dv_reqd: the same loop */
  /* the list's next[]: the .sim's values */
  if (argc > 2)
    for (int k = 0; k < 64; k++)
      printf("%d ", list_next(k));
  return 0;
}
