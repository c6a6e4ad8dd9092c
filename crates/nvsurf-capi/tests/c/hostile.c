/* Hostile input: NULL pointers, short buffers, huge sizes, unknown names, overlapping and
 * misaligned buffers. Every call must return the error status that tests/data/hostile.txt
 * names (written by hand from the rules in nvsurf.h) with a message naming the field, never
 * crash, and never write an output it refused. */
#include "common.h"

#define MAX_CASES 64
static const char *names[MAX_CASES];
static NvsurfStatus got[MAX_CASES];
static char messages[MAX_CASES][512];
static int n_cases = 0;

static void record(const char *name, NvsurfStatus st) {
    if (n_cases == MAX_CASES) exit(1);
    names[n_cases] = name;
    got[n_cases] = st;
    snprintf(messages[n_cases], sizeof messages[0], "%s", st == NVSURF_OK ? "" : nvsurf_last_error());
    printf("%-28s %2d %s\n", name, (int)st, messages[n_cases]);
    n_cases++;
}

static const char *status_name(NvsurfStatus s) {
    switch (s) {
    case NVSURF_OK: return "NVSURF_OK";
    case NVSURF_ERR_NULL: return "NVSURF_ERR_NULL";
    case NVSURF_ERR_INVALID: return "NVSURF_ERR_INVALID";
    case NVSURF_ERR_UNKNOWN_NAME: return "NVSURF_ERR_UNKNOWN_NAME";
    case NVSURF_ERR_BUFFER_TOO_SMALL: return "NVSURF_ERR_BUFFER_TOO_SMALL";
    case NVSURF_ERR_OUT_OF_BOUNDS: return "NVSURF_ERR_OUT_OF_BOUNDS";
    case NVSURF_ERR_OVERFLOW: return "NVSURF_ERR_OVERFLOW";
    case NVSURF_ERR_UNSUPPORTED: return "NVSURF_ERR_UNSUPPORTED";
    case NVSURF_ERR_OVERLAP: return "NVSURF_ERR_OVERLAP";
    case NVSURF_ERR_BAD_STRING: return "NVSURF_ERR_BAD_STRING";
    case NVSURF_ERR_INTERNAL: return "NVSURF_ERR_INTERNAL";
    }
    return "?";
}

static NvsurfSurfaceParams surface_params(void) {
    NvsurfSurfaceParams p;
    CHECK_OK(nvsurf_surface_params_init(&p));
    p.platform = "switch";
    p.format = "A8B8G8R8";
    p.width = 64;
    p.height = 64;
    return p;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "tests/data";
    NvsurfSurfaceParams p = surface_params();
    NvsurfTextureParams tp;
    NvsurfSurface *s = NULL, *none = NULL;
    NvsurfTexture *t = NULL;
    NvsurfFormat *f = NULL;
    NvsurfSurfaceInfo info;
    NvsurfLevelInfo level;
    NvsurfBox outside = {60, 0, 0, 8, 1, 1};
    unsigned char *tiled, *lin, *canary, *untouched;
    uint64_t off;
    size_t golden_len;
    char *golden, *line;
    float floats[9];
    int k;

    /* Creation. */
    record("create_null_params", nvsurf_surface_create(NULL, &s));
    record("create_null_out", nvsurf_surface_create(&p, NULL));
    p.platform = NULL;
    record("create_null_platform", nvsurf_surface_create(&p, &none));
    p.platform = "nv9999";
    record("create_unknown_platform", nvsurf_surface_create(&p, &none));
    p = surface_params();
    p.format = "RGBA99_UNORM";
    record("create_unknown_format", nvsurf_surface_create(&p, &none));
    p = surface_params();
    p.elem_size_bytes = 4;
    record("create_format_and_size", nvsurf_surface_create(&p, &none));
    p = surface_params();
    p.format = NULL;
    record("create_no_elements", nvsurf_surface_create(&p, &none));
    p = surface_params();
    p.width = 0x7fffffff;
    p.height = 0x7fffffff;
    record("create_huge_surface", nvsurf_surface_create(&p, &none));
    p = surface_params();
    p.layout = "spiral";
    record("create_unknown_layout", nvsurf_surface_create(&p, &none));
    p = surface_params();
    p.use_block_log2 = 7;
    record("create_bad_bool", nvsurf_surface_create(&p, &none));
    p = surface_params();
    p.platform = "g80";
    p.format = "bc7";
    record("create_format_not_on_gpu", nvsurf_surface_create(&p, &none));
    p = surface_params();
    p.platform = "gh100";
    p.format = "Z24_S8";
    record("create_no_known_gob_order", nvsurf_surface_create(&p, &none));
    p = surface_params();
    p.platform = "sw\xff\xfe";
    record("create_bad_utf8", nvsurf_surface_create(&p, &none));
    EXPECT(none == NULL, "a failed create wrote its out pointer");

    CHECK_OK(nvsurf_texture_params_init(&tp));
    tp.platform = "switch";
    tp.format = "bc7";
    tp.width = 64;
    tp.height = 64;
    tp.levels = 0;
    record("texture_zero_levels", nvsurf_texture_create(&tp, &t));
    tp.levels = 1;
    tp.width = 0xffffffffu;
    tp.height = 0xffffffffu;
    tp.texture_type = "cube";
    record("texture_huge_cube", nvsurf_texture_create(&tp, &t));
    tp.texture_type = "hypercube";
    record("texture_unknown_type", nvsurf_texture_create(&tp, &t));
    EXPECT(t == NULL, "a failed texture create wrote its out pointer");

    /* A valid surface to copy with. */
    p = surface_params();
    CHECK_OK(nvsurf_surface_create(&p, &s));
    CHECK_OK(nvsurf_surface_info(s, &info));
    tiled = pattern((size_t)info.size_bytes);
    lin = (unsigned char *)calloc((size_t)info.linear_size_bytes, 1);
    canary = (unsigned char *)malloc((size_t)info.linear_size_bytes);
    memset(canary, 0xAB, (size_t)info.linear_size_bytes);

    record("untile_null_surface", nvsurf_surface_untile(NULL, tiled, (size_t)info.size_bytes, lin,
                                                         (size_t)info.linear_size_bytes, 0));
    record("untile_null_tiled", nvsurf_surface_untile(s, NULL, (size_t)info.size_bytes, lin,
                                                      (size_t)info.linear_size_bytes, 0));
    record("untile_null_linear", nvsurf_surface_untile(s, tiled, (size_t)info.size_bytes, NULL,
                                                       (size_t)info.linear_size_bytes, 0));
    record("untile_short_tiled", nvsurf_surface_untile(s, tiled, (size_t)info.size_bytes - 1, canary,
                                                       (size_t)info.linear_size_bytes, 0));
    record("untile_short_linear", nvsurf_surface_untile(s, tiled, (size_t)info.size_bytes, canary,
                                                        (size_t)info.linear_size_bytes - 1, 0));
    untouched = (unsigned char *)malloc((size_t)info.linear_size_bytes);
    memset(untouched, 0xAB, (size_t)info.linear_size_bytes);
    same_bytes("refused output untouched", canary, untouched, (size_t)info.linear_size_bytes);
    free(untouched);
    record("untile_huge_length", nvsurf_surface_untile(s, tiled, SIZE_MAX, lin,
                                                       (size_t)info.linear_size_bytes, 0));
    record("untile_overlap", nvsurf_surface_untile(s, tiled, (size_t)info.size_bytes, tiled + 64,
                                                   (size_t)info.linear_size_bytes - 64, 0));
    record("untile_unknown_flag", nvsurf_surface_untile(s, tiled, (size_t)info.size_bytes, lin,
                                                        (size_t)info.linear_size_bytes, 0x80));
    record("untile_box_outside", nvsurf_surface_untile_box(s, &outside, 0, 0, tiled, (size_t)info.size_bytes,
                                                           lin, (size_t)info.linear_size_bytes, 0));
    record("untile_box_null", nvsurf_surface_untile_box(s, NULL, 0, 0, tiled, (size_t)info.size_bytes, lin,
                                                        (size_t)info.linear_size_bytes, 0));
    record("tile_short_tiled", nvsurf_surface_tile(s, lin, (size_t)info.linear_size_bytes, tiled, 100, 0));
    record("offset_outside", nvsurf_surface_offset_of(s, 64, 0, 0, &off));
    record("offset_null_out", nvsurf_surface_offset_of(s, 0, 0, 0, NULL));
    record("info_null_out", nvsurf_surface_info(s, NULL));

    /* Textures. */
    tp.width = 64;
    tp.height = 64;
    tp.texture_type = NULL;
    CHECK_OK(nvsurf_texture_create(&tp, &t));
    record("texture_level_outside", nvsurf_texture_level(t, 1, &level));
    record("texture_layer_outside", nvsurf_texture_offset_of(t, 0, 1, 0, 0, 0, &off));
    record("texture_untile_short", nvsurf_texture_untile(t, tiled, 16, lin, (size_t)info.linear_size_bytes, 0));

    /* Formats and decoding. */
    record("format_null_name", nvsurf_format_lookup(NULL, &f));
    record("format_unknown_name", nvsurf_format_lookup("BC99", &f));
    CHECK_OK(nvsurf_format_lookup("A8B8G8R8", &f));
    record("decode_short_output", nvsurf_decode_rgba8(f, tiled, 64, 0, 4, 4, lin, 63));
    record("decode_short_input", nvsurf_decode_rgba8(f, tiled, 63, 0, 4, 4, lin, 64));
    record("decode_huge_size", nvsurf_decode_rgba8(f, tiled, 64, 0, 0xffffffffu, 0xffffffffu, lin, 64));
    record("decode_misaligned_floats",
           nvsurf_decode_rgba_f32(f, tiled, 4, 0, 1, 1, (float *)((unsigned char *)floats + 1), 4));
    record("destroy_null", nvsurf_surface_destroy(NULL));

    /* Compare with the expectations: "<case> <status> <text the message must contain>". */
    golden = (char *)read_golden(dir, "hostile.txt", &golden_len);
    golden = (char *)realloc(golden, golden_len + 1);
    golden[golden_len] = 0;
    k = 0;
    for (line = strtok(golden, "\n"); line; line = strtok(NULL, "\n")) {
        char name[64], status[64], *want;
        int used = 0;
        if (line[0] == '#' || line[0] == 0) continue;
        if (sscanf(line, "%63s %63s %n", name, status, &used) < 2) {
            fprintf(stderr, "hostile.txt: bad line '%s'\n", line);
            failures++;
            continue;
        }
        want = line + used;
        if (k >= n_cases || strcmp(names[k], name) != 0) {
            fprintf(stderr, "hostile.txt: case %d is %s, the program ran %s\n", k, name, k < n_cases ? names[k] : "nothing");
            failures++;
            break;
        }
        if (strcmp(status_name(got[k]), status) != 0) {
            fprintf(stderr, "%s: status %s, want %s (%s)\n", name, status_name(got[k]), status, messages[k]);
            failures++;
        } else if (*want && !strstr(messages[k], want)) {
            fprintf(stderr, "%s: message '%s' does not contain '%s'\n", name, messages[k], want);
            failures++;
        }
        k++;
    }
    EXPECT(k == n_cases, "hostile.txt has %d cases, the program ran %d", k, n_cases);

    free(golden);
    free(canary);
    free(lin);
    free(tiled);
    CHECK_OK(nvsurf_format_destroy(f));
    CHECK_OK(nvsurf_texture_destroy(t));
    CHECK_OK(nvsurf_surface_destroy(s));
    if (failures) {
        fprintf(stderr, "hostile: %d mismatches\n", failures);
        return 1;
    }
    printf("hostile: ok (%d cases)\n", n_cases);
    return 0;
}
