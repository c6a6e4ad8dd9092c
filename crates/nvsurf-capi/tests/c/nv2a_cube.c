/* NV2A (xemu): the pre-G80 swizzle and unswizzle of a cube map with mips and of a 3D texture
 * with mips, against golden files made with the library's reference twins. */
#include "common.h"

static void round_trip(const char *dir, const char *golden_name, const char *type, uint32_t elem,
                       uint32_t w, uint32_t h, uint32_t d, uint32_t want_levels,
                       uint32_t want_layers) {
    NvsurfTextureParams p;
    NvsurfTexture *t = NULL;
    NvsurfTextureInfo info;
    NvsurfLevelInfo l1;
    size_t golden_len;
    unsigned char *golden = read_golden(dir, golden_name, &golden_len);
    unsigned char *lin, *tiled, *back;

    CHECK_OK(nvsurf_texture_params_init(&p));
    p.platform = "nv2a";
    p.texture_type = type;
    p.elem_size_bytes = elem;
    p.width = w;
    p.height = h;
    p.depth = d;
    p.levels = NVSURF_ALL_LEVELS;
    CHECK_OK(nvsurf_texture_create(&p, &t));
    CHECK_OK(nvsurf_texture_info(t, &info));
    EXPECT(info.layout == NVSURF_LAYOUT_SWIZZLED, "layout %d", (int)info.layout);
    EXPECT(info.level_count == want_levels, "%u levels", info.level_count);
    EXPECT(info.layer_count == want_layers, "%u layers", info.layer_count);
    EXPECT(info.size_bytes == golden_len, "size %lu, golden %lu", (unsigned long)info.size_bytes,
           (unsigned long)golden_len);
    CHECK_OK(nvsurf_texture_level(t, 1, &l1));
    EXPECT(l1.texels[0] == w / 2 && l1.texels[1] == h / 2, "level 1 is %ux%u", l1.texels[0], l1.texels[1]);
    printf("%s: %u levels x %u layers, %lu bytes, layer stride %lu, level 1 at %lu\n", golden_name,
           info.level_count, info.layer_count, (unsigned long)info.size_bytes,
           (unsigned long)info.layer_stride_bytes, (unsigned long)l1.offset_bytes);

    lin = pattern((size_t)info.linear_size_bytes);
    tiled = (unsigned char *)calloc((size_t)info.size_bytes, 1);
    back = (unsigned char *)calloc((size_t)info.linear_size_bytes, 1);
    /* Swizzle: the packed linear texture into the texture's memory. */
    CHECK_OK(nvsurf_texture_tile(t, lin, (size_t)info.linear_size_bytes, tiled, (size_t)info.size_bytes, 0));
    same_bytes("swizzled", tiled, golden, golden_len);
    /* Unswizzle: the golden texture back to the pattern. */
    CHECK_OK(nvsurf_texture_untile(t, golden, golden_len, back, (size_t)info.linear_size_bytes, 0));
    same_bytes("unswizzled", back, lin, (size_t)info.linear_size_bytes);
    /* The same with the copy split over threads. */
    memset(back, 0, (size_t)info.linear_size_bytes);
    CHECK_OK(nvsurf_texture_untile(t, golden, golden_len, back, (size_t)info.linear_size_bytes,
                                   NVSURF_COPY_PARALLEL));
    same_bytes("unswizzled (parallel)", back, lin, (size_t)info.linear_size_bytes);

    free(lin);
    free(tiled);
    free(back);
    free(golden);
    CHECK_OK(nvsurf_texture_destroy(t));
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "tests/data";
    printf("nvsurf %s\n", nvsurf_version());
    round_trip(dir, "nv2a_cube16_swizzled.bin", "cube", 4, 16, 16, 1, 5, 6);
    round_trip(dir, "nv2a_3d8x8x4_swizzled.bin", "3d", 2, 8, 8, 4, 4, 1);
    if (failures) {
        fprintf(stderr, "nv2a_cube: %d mismatches\n", failures);
        return 1;
    }
    printf("nv2a_cube: ok\n");
    return 0;
}
