// expect: verified
// --blockDim=64 --gridDim=2
// The other element types, each warp on its own tiles: bf16 (m16n16k16), tf32 (m16n16k8,
// stored as float, converted with __float_to_tf32), double (m8n8k4), unsigned char into int
// (m16n16k16), and a half accumulator filled with a half value.
#include <mma.h>
#include <cuda_bf16.h>
using namespace nvcuda;

__global__ void k(const __nv_bfloat16 *ab, const float *af, const double *ad, const unsigned char *au,
                  float *cf, double *cd, int *ci, half *ch) {
  int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> ba;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> bb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> bc;
  wmma::load_matrix_sync(ba, ab + w * 512, 16);
  wmma::load_matrix_sync(bb, ab + w * 512 + 256, 16);
  wmma::fill_fragment(bc, 0.0f);
  wmma::mma_sync(bc, ba, bb, bc);
  wmma::store_matrix_sync(cf + w * 512, bc, 16, wmma::mem_row_major);

  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> ta;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> tb;
  wmma::load_matrix_sync(ta, af + w * 256, 8);
  wmma::load_matrix_sync(tb, af + w * 256 + 128, 8);
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> tc;
  for (int t = 0; t < ta.num_elements; t++) ta.x[t] = wmma::__float_to_tf32(ta.x[t]);
  wmma::fill_fragment(tc, 0.0f);
  wmma::mma_sync(tc, ta, tb, tc);
  wmma::store_matrix_sync(cf + w * 512 + 256, tc, 16, wmma::mem_col_major);

  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> da;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> db;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> dc;
  wmma::load_matrix_sync(da, ad + w * 64, 4);
  wmma::load_matrix_sync(db, ad + w * 64 + 32, 4);
  wmma::load_matrix_sync(dc, cd + w * 64, 8, wmma::mem_row_major);
  wmma::mma_sync(dc, da, db, dc);
  wmma::store_matrix_sync(cd + w * 64, dc, 8, wmma::mem_row_major);

  wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> ua;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::col_major> ub;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> uc;
  wmma::load_matrix_sync(ua, au + w * 512, 16);
  wmma::load_matrix_sync(ub, au + w * 512 + 256, 16);
  wmma::fill_fragment(uc, 0);
  wmma::mma_sync(uc, ua, ub, uc);
  wmma::store_matrix_sync(ci + w * 256, uc, 16, wmma::mem_row_major);

  wmma::fragment<wmma::accumulator, 16, 16, 16, half> hc;
  wmma::fill_fragment(hc, __float2half(1.0f));
  wmma::store_matrix_sync(ch + w * 256, hc, 16, wmma::mem_col_major);
}
