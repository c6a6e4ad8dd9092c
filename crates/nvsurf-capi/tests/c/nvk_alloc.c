/* NVK's questions in C: an 8-sample image (block from the pixel height, the sample grid
 * stored), NVK's allocation size and alignment, and a sparse image's block and mip tail.
 * The expected numbers are Mesa nil's rules worked by hand (src/nouveau/nil/image.rs and
 * tiling.rs at 157fa86f; crates/nvsurf/src/texture/nil.rs says how). */
#include "common.h"

int main(void) {
    NvsurfTextureParams p;
    NvsurfTexture *t = NULL;
    NvsurfTextureInfo info;
    NvsurfLevelInfo l0;
    NvsurfTextureAllocation a;

    /* GA102, R32G32_FLOAT, 3x14 pixels, 8 samples: nil's block height comes from the 14
     * pixel rows (log2 1), the level holds 12x28 samples; nvk rounds 4096 bytes up to 4 KiB. */
    CHECK_OK(nvsurf_texture_params_init(&p));
    p.platform = "ga102";
    p.format = "R32G32_FLOAT";
    p.width = 3;
    p.height = 14;
    p.block_policy = "nvk";
    CHECK_OK(nvsurf_texture_create_ex(&p, 8, 0, &t));
    CHECK_OK(nvsurf_texture_info(t, &info));
    CHECK_OK(nvsurf_texture_level(t, 0, &l0));
    CHECK_OK(nvsurf_texture_allocation(t, &a));
    EXPECT(l0.block_log2[1] == 1, "block height log2 %u", l0.block_log2[1]);
    EXPECT(l0.elements[0] == 12 && l0.elements[1] == 28, "samples %ux%u", l0.elements[0], l0.elements[1]);
    EXPECT(a.samples == 8 && a.align_bytes == 4096 && a.align_source == NVSURF_ALIGN_NIL, "%u samples, align %lu",
           a.samples, (unsigned long)a.align_bytes);
    EXPECT(info.size_bytes == 4096, "size %lu", (unsigned long)info.size_bytes);
    CHECK_OK(nvsurf_texture_destroy(t));

    /* A sample count no mode has, and an unknown flag: refused. */
    EXPECT(nvsurf_texture_create_ex(&p, 3, 0, &t) != NVSURF_OK, "3 samples accepted");
    EXPECT(nvsurf_texture_create_ex(&p, 1, 4, &t) == NVSURF_ERR_UNSUPPORTED, "flag 4 accepted");

    /* ASTC cannot be sampled on a desktop GPU (nil's format table): refused unless asked. */
    CHECK_OK(nvsurf_texture_params_init(&p));
    p.platform = "gh100";
    p.format = "astc_4x4";
    p.width = 64;
    p.height = 64;
    EXPECT(nvsurf_texture_create(&p, &t) == NVSURF_ERR_UNSUPPORTED, "ASTC on gh100 accepted");
    CHECK_OK(nvsurf_texture_create_ex(&p, 1, NVSURF_TEXTURE_ANY_FORMAT, &t));
    CHECK_OK(nvsurf_texture_destroy(t));
    p.platform = "switch";
    CHECK_OK(nvsurf_texture_create(&p, &t));
    CHECK_OK(nvsurf_texture_destroy(t));

    /* TU102 RGBA8 1000x700, every level, sparse: 128x128-pixel blocks; level 3 (125 pixels,
     * 500 bytes wide) is narrower than the 512-byte block, so the tail starts there. */
    CHECK_OK(nvsurf_texture_params_init(&p));
    p.platform = "tu102";
    p.format = "rgba8";
    p.width = 1000;
    p.height = 700;
    p.levels = NVSURF_ALL_LEVELS;
    CHECK_OK(nvsurf_texture_create_ex(&p, 1, NVSURF_TEXTURE_SPARSE, &t));
    CHECK_OK(nvsurf_texture_allocation(t, &a));
    CHECK_OK(nvsurf_texture_info(t, &info));
    EXPECT(a.sparse == 1 && a.align_bytes == 65536, "sparse %u align %lu", a.sparse, (unsigned long)a.align_bytes);
    EXPECT(a.sparse_block_px[0] == 128 && a.sparse_block_px[1] == 128 && a.sparse_block_px[2] == 1,
           "sparse block %ux%ux%u", a.sparse_block_px[0], a.sparse_block_px[1], a.sparse_block_px[2]);
    EXPECT(a.mip_tail_first_level == 3, "tail from level %u", a.mip_tail_first_level);
    EXPECT(a.mip_tail_offset_bytes + a.mip_tail_size_bytes == info.layer_stride_bytes, "tail %lu + %lu",
           (unsigned long)a.mip_tail_offset_bytes, (unsigned long)a.mip_tail_size_bytes);
    EXPECT(info.size_bytes % 65536 == 0, "size %lu", (unsigned long)info.size_bytes);
    printf("nvk: 8-sample block log2 %u,%u,%u; sparse tail from level %u at %lu (%lu bytes)\n", l0.block_log2[0],
           l0.block_log2[1], l0.block_log2[2], a.mip_tail_first_level, (unsigned long)a.mip_tail_offset_bytes,
           (unsigned long)a.mip_tail_size_bytes);
    CHECK_OK(nvsurf_texture_destroy(t));
    return failures == 0 ? 0 : 1;
}
