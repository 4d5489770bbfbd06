#pragma once
// Shared checks of the fuzz targets (tests/fuzz, docs/fuzzing.md). Each target feeds the fuzzer's
// bytes to one parser as text. The parsers promise never to throw: an exception that escapes
// crashes the target, and libFuzzer reports it with the input. What a successful parse yields
// is checked further here, and every violation calls fail(), which prints the reason and aborts
// (libFuzzer then saves the input as a crash artifact):
//   - evaluate() of the configuration (and of every saved design) gives finite, non-negative
//     numbers whose breakdown adds up, and an infeasible result always carries a reason;
//   - a scenario serialised with scenario_to_json() loads back, and serialises to the same text;
//   - the parsers' catch-all handlers ("could not be read: ...") only ever report an allocation
//     failure: any other exception they caught is a bug that the parser hid.

#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "comet/evaluate.hpp"
#include "comet/report.hpp"
#include "comet/result.hpp"
#include "comet/scenario.hpp"
#include "fixtures.hpp"

namespace comet::fuzz {

[[noreturn]] inline void fail(std::string_view what, std::string_view detail = {}) {
    std::fprintf(stderr, "\n==== COMET fuzz check failed: %.*s\n%.*s\n", static_cast<int>(what.size()), what.data(),
                 static_cast<int>(detail.size()), detail.data());
    std::fflush(stderr);
    std::abort();
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) { return {reinterpret_cast<const char*>(data), size}; }

// Loaders that take a path read each input through this file.
inline void write_file(const std::filesystem::path& file, std::string_view text) {
    std::FILE* f = std::fopen(file.c_str(), "wb");
    if (!f) fail("cannot write the temporary input file", file.string());
    if (!text.empty() && std::fwrite(text.data(), 1, text.size(), f) != text.size())
        fail("cannot write the temporary input file", file.string());
    std::fclose(f);
}

// A fresh folder for this process's temporary files, in /dev/shm when there is one, removed at
// exit.
inline std::filesystem::path make_work_dir(const std::string& prefix) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path tmp =
        fs::is_directory("/dev/shm", ec) && ::access("/dev/shm", W_OK) == 0 ? fs::path("/dev/shm") : fs::temp_directory_path();
    static fs::path dir;
    dir = tmp / (prefix + std::to_string(::getpid()));
    fs::create_directories(dir, ec);
    if (ec) fail("cannot create the work folder", dir.string());
    std::atexit([] {
        std::error_code ignored;
        fs::remove_all(dir, ignored);
    });
    return dir;
}

// Presets named by scenarios come from the source tree only, never from the user's own folder,
// so that a run does not depend on the machine (COMET_SOURCE_DIR is set by tests/fuzz/CMakeLists.txt).
inline void use_source_presets() {
    ::setenv("COMET_PRESETS_DIR", COMET_SOURCE_DIR "/presets", 0);
    ::setenv("COMET_USER_PRESETS_DIR", "/nonexistent/comet-fuzz-user-presets", 1);
}

// The loaders catch std::exception only to turn an allocation failure on hostile input into a
// message ("<label>: could not be read: <what>"); anything else they catch is a bug that the catch
// would hide. Only messages that start with the loader's own label are looked at: others quote
// the input, which the fuzzer fills with these very words.
inline void check_no_swallowed_exception(const std::vector<std::string>& errors, std::string_view label) {
    static constexpr std::string_view markers[] = {"could not be read: ", "could not be parsed: ", "import failed: "};
    for (const std::string& e : errors)
        for (std::string_view m : markers)
            if (e.size() > label.size() + 2 && e.starts_with(label) && std::string_view(e).substr(label.size()).starts_with(": ") &&
                std::string_view(e).substr(label.size() + 2).starts_with(m) && e.find("bad_alloc") == std::string::npos)
                fail("a loader caught an exception other than an allocation failure", e);
}

inline void check_result(const Result& r, const Config& c, std::string_view where) {
    const auto context = [&] { return std::string(where) + ": reason " + std::string(to_string(r.reason)); };
    for (const auto& [name, v] : test::result_numbers(r))
        if (!std::isfinite(v) || v < 0)
            fail("evaluate() gave a non-finite or negative number", context() + ": " + name + " = " + std::to_string(v));
    if (r.feasible != (r.reason == Infeasible::none)) fail("feasible and reason disagree", context());
    if (static_cast<int>(r.reason) >= static_cast<int>(Infeasible::count_)) fail("reason out of range", context());
    if (!r.feasible && explain(r).empty()) fail("an infeasible result without an explanation", context());
    if (r.iteration_s > 0) {
        if (std::abs(r.time.total() - r.iteration_s) > 1e-9 * r.iteration_s) fail("breakdown does not add up", context());
        // Tokens for a transformer, samples for a DLRM (the field keeps its historical name).
        const double items = items_per_iteration(c);
        if (std::abs(r.tokens_per_s * r.iteration_s - items) > 1e-9 * items)
            fail("throughput disagrees with the iteration time", context());
    }
    if (r.feasible) {
        if (!(r.iteration_s > 0)) fail("a feasible result without an iteration time", context());
        if (r.hbm.used_bytes() > r.hbm.capacity_bytes) fail("feasible but HBM overflows", context());
        if (r.expanded.used_bytes() > r.expanded.capacity_bytes) fail("feasible but the expanded tier overflows", context());
    }
}

// Evaluates a loaded scenario (and each of its designs) and renders the results.
inline void check_evaluation(const Scenario& s) {
    const Result r = evaluate(s.config);
    check_result(r, s.config, "scenario");
    (void)format_result_text(s, r);
    (void)format_result_json(s, r);
    for (const Design& d : s.designs) {
        const Config c = design_config(s.config, d);
        check_result(evaluate(c), c, "design " + d.name);
    }
}

// scenario_to_json() writes every key, so that a saved file loads back equal.
inline void check_round_trip(const Scenario& s) {
    const std::string first = scenario_to_json(s);
    const Loaded<Scenario> back = parse_scenario(first, "round-trip.comet.json");
    if (!back.ok()) fail("a serialised scenario does not load back", back.error_text() + "\n---- serialised:\n" + first);
    const std::string second = scenario_to_json(*back.value);
    if (second != first) fail("a serialised scenario loads back different", "---- first:\n" + first + "\n---- second:\n" + second);
}

inline void check_scenario(const Scenario& s) {
    check_evaluation(s);
    check_round_trip(s);
}

}  // namespace comet::fuzz
