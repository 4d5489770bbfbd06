#include "comet/presets.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "comet/check.hpp"
#include "comet/config.hpp"
#include "json_reader.hpp"
#include "scenario_sections.hpp"

namespace comet {
namespace {

namespace fs = std::filesystem;

bool is_dir(const fs::path& p) {
    std::error_code ec;
    return fs::is_directory(p, ec);
}

// Reads {"format": <format>, "version": 1, ...} and hands the rest to `body`.
template <class T>
Loaded<T> load_preset(const fs::path& file, std::string_view format, T preset,
                      const std::function<void(ObjectReader&, T&)>& body, std::string_view section) {
    Loaded<T> out;
    const std::string label = file.string();
    std::string text;
    if (std::string problem = read_json_file(file, text); !problem.empty()) {
        out.errors.push_back(label + ": " + problem);
        return out;
    }
    JsonReader r(label);
    r.set_allowed_hint(sections::allowed_by_rule);
    const auto doc = r.parse(text);
    if (doc) {
        r.object(*doc, [&](ObjectReader& top) {
            std::string f;
            if (top.required_string("format", f) && f != format) {
                top.error("format", "is \"" + f + "\", must be \"" + std::string(format) + "\"");
                top.allow_all();
                return;
            }
            int version = 0;
            if (top.required_int("version", version) && version != 1)
                top.error("version", "is " + std::to_string(version) + "; this build reads version 1");
            body(top, preset);
        });
    }
    // Range rules of the preset's own section only.
    if (r.ok()) {
        Config c;
        if constexpr (std::is_same_v<T, NodePreset>) c.node = preset.node;
        else c.model = preset.model;
        for (const FieldError& e : check_config(c))
            if (e.path.rfind(std::string(section) + ".", 0) == 0) r.error("", e.message());
    }
    out.errors = r.take_errors();
    if (out.errors.empty()) {
        preset.id = file.stem().string();
        out.value = std::move(preset);
    }
    return out;
}

template <class T>
std::vector<T> load_all(const fs::path& dir, Loaded<T> (*load)(const fs::path&), std::vector<std::string>& errors) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().extension() == ".json") files.push_back(e.path());
    if (ec) errors.push_back(dir.string() + ": " + ec.message());
    std::sort(files.begin(), files.end());
    std::vector<T> out;
    for (const auto& f : files) {
        auto l = load(f);
        if (l.ok()) out.push_back(std::move(*l.value));
        else errors.insert(errors.end(), l.errors.begin(), l.errors.end());
    }
    return out;
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace

fs::path presets_dir() {
    if (const char* env = std::getenv("COMET_PRESETS_DIR"); env && *env) return env;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path installed = exe.parent_path().parent_path() / config::presets_install_dir;
        if (is_dir(installed)) return installed;
    }
    return config::presets_source_dir;
}

Loaded<NodePreset> load_node_preset(const fs::path& file) {
    return load_preset<NodePreset>(
        file, "comet-node", NodePreset{},
        [](ObjectReader& top, NodePreset& p) {
            if (const nlohmann::json* aliases = top.value("aliases")) {
                if (!aliases->is_array()) top.error("aliases", "expected an array of strings");
                else
                    for (const auto& a : *aliases) {
                        if (a.is_string()) p.aliases.push_back(a.get<std::string>());
                        else top.error("aliases", "expected an array of strings, got " + describe_json_value(a));
                    }
            }
            top.required_object("node", [&](ObjectReader& o) { sections::read_node(o, p.node, p.info); });
        },
        "node");
}

Loaded<ModelPreset> load_model_preset(const fs::path& file) {
    return load_preset<ModelPreset>(
        file, "comet-model", ModelPreset{},
        [](ObjectReader& top, ModelPreset& p) {
            sections::Derived derived;
            top.required_object("model", [&](ObjectReader& o) { sections::read_model(o, p.model, p.info, derived); });
        },
        "model");
}

std::vector<NodePreset> load_node_presets(std::vector<std::string>& errors) {
    return load_all<NodePreset>(presets_dir() / "nodes", load_node_preset, errors);
}

std::vector<ModelPreset> load_model_presets(std::vector<std::string>& errors) {
    return load_all<ModelPreset>(presets_dir() / "models", load_model_preset, errors);
}

const NodePreset* match_node_preset(const std::vector<NodePreset>& presets, std::string_view text) {
    const std::string hay = lower(text);
    const NodePreset* best = nullptr;
    std::size_t best_len = 0;
    for (const auto& p : presets) {
        std::vector<std::string> names = p.aliases;
        names.push_back(p.id);
        names.push_back(p.info.name);
        for (const auto& n : names) {
            if (n.empty()) continue;
            if (hay.find(lower(n)) != std::string::npos && n.size() > best_len) {
                best = &p;
                best_len = n.size();
            }
        }
    }
    return best;
}

}  // namespace comet
