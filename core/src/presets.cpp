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
    // Range and cross-field rules of the preset's own section only. The other sections hold the
    // smallest valid values: check_config() skips the cross-field rules (kv_heads divides heads,
    // reserved below capacity, expanded bandwidth with capacity) while any field is out of range,
    // and a default Config has zeros everywhere.
    if (r.ok()) {
        Config c;
        c.model = {1, 1, 1, 1, 1, 1, false, 1, 1, true, true, true};
        c.node.matrix_fp16_tflops = c.node.vector_tflops = c.node.hbm_capacity_gib = c.node.hbm_bandwidth_gbps = 1;
        c.node.scale_up.bandwidth_gbps = c.node.scale_out.bandwidth_gbps = 1;
        c.training.global_batch = 1;
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

fs::path user_presets_dir() {
    if (const char* env = std::getenv("COMET_USER_PRESETS_DIR"); env && *env) return env;
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) return fs::path(xdg) / "comet-explorer" / "presets";
    if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".local" / "share" / "comet-explorer" / "presets";
    return {};
}

namespace {

// Shipped presets, then the user's: a user preset with the same id replaces the shipped one.
template <class T>
std::vector<T> load_both(std::string_view kind, Loaded<T> (*load)(const fs::path&), std::vector<std::string>& errors) {
    std::vector<T> all = load_all<T>(presets_dir() / kind, load, errors);
    const fs::path user = user_presets_dir();
    if (user.empty() || !is_dir(user / kind)) return all;
    for (T& u : load_all<T>(user / kind, load, errors)) {
        auto same = std::find_if(all.begin(), all.end(), [&](const T& p) { return p.id == u.id; });
        if (same != all.end()) *same = std::move(u);
        else all.push_back(std::move(u));
    }
    return all;
}

template <class T>
std::optional<T> find_preset(const std::vector<T>& all, std::string_view name) {
    const std::string want = lower(name);
    for (const T& p : all) {
        bool hit = lower(p.id) == want || lower(p.info.name) == want;
        if constexpr (std::is_same_v<T, NodePreset>)
            for (const auto& a : p.aliases) hit = hit || lower(a) == want;
        if (hit) return p;
    }
    return std::nullopt;
}

std::string save_user_preset(std::string_view kind, const std::string& id, nlohmann::ordered_json doc) {
    if (id.empty() || id.find_first_of("/\\") != std::string::npos || id.front() == '.')
        return "invalid preset name \"" + id + "\": use letters, digits, '-' and '_'";
    const fs::path dir = user_presets_dir() / kind;
    if (user_presets_dir().empty()) return "no user data folder (HOME and XDG_DATA_HOME are unset)";
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return "cannot create " + dir.string() + ": " + ec.message();
    return save_text_atomically(dir / (id + ".json"), doc.dump(2) + "\n");
}

}  // namespace

std::vector<NodePreset> load_node_presets(std::vector<std::string>& errors) {
    return load_both<NodePreset>("nodes", load_node_preset, errors);
}

std::vector<ModelPreset> load_model_presets(std::vector<std::string>& errors) {
    return load_both<ModelPreset>("models", load_model_preset, errors);
}

std::optional<NodePreset> find_node_preset(std::string_view name) {
    std::vector<std::string> errors;
    return find_preset(load_node_presets(errors), name);
}

std::optional<ModelPreset> find_model_preset(std::string_view name) {
    std::vector<std::string> errors;
    return find_preset(load_model_presets(errors), name);
}

std::string known_preset_names(std::string_view kind) {
    std::vector<std::string> errors, ids;
    if (kind == "nodes")
        for (const auto& p : load_node_presets(errors)) ids.push_back(p.id);
    else
        for (const auto& p : load_model_presets(errors)) ids.push_back(p.id);
    std::string out = "known: ";
    for (std::size_t i = 0; i < ids.size(); ++i) out += (i ? ", " : "") + ids[i];
    return ids.empty() ? "no presets found in " + (presets_dir() / kind).string() : out;
}

std::string save_user_node_preset(const std::string& id, const Provenance& info, const NodeSpec& node) {
    nlohmann::ordered_json doc;
    doc["format"] = "comet-node";
    doc["version"] = 1;
    doc["aliases"] = nlohmann::ordered_json::array();
    doc["node"] = sections::node_json(node, info);
    return save_user_preset("nodes", id, std::move(doc));
}

std::string save_user_model_preset(const std::string& id, const Provenance& info, const ModelSpec& model) {
    nlohmann::ordered_json doc;
    doc["format"] = "comet-model";
    doc["version"] = 1;
    doc["model"] = sections::model_json(model, info);
    return save_user_preset("models", id, std::move(doc));
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
