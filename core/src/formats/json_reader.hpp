#pragma once
// Strict, friendly reading of JSON input files (scenarios, sweeps, presets).
//
// JsonReader parses text with hard limits (size, nesting depth, no duplicate keys) and
// collects errors instead of throwing. ObjectReader reads one JSON object field by field,
// tracks the key path for messages and, when the object is done, reports every key that was
// never asked for as unknown (with a "did you mean" suggestion). Every message has the form
// "<label>: <key path>: <problem>", where the problem names the offending value and what is
// allowed. Range checks are not done here: they belong to the caller's rule table.
//
//     JsonReader r("x.comet.json");
//     if (auto doc = r.parse(text))
//         r.object(*doc, [&](ObjectReader& top) {
//             top.required_object("model", [&](ObjectReader& m) {
//                 m.required_int("layers", spec.layers);
//                 m.optional_bool("gated_mlp", spec.gated_mlp);
//             });
//         });
//     auto errors = r.take_errors();

#include <array>
#include <concepts>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

namespace comet {

inline constexpr std::size_t max_json_bytes = std::size_t{16} << 20;  // 16 MiB
inline constexpr int max_json_depth = 64;

template <class E>
struct EnumName {
    std::string_view name;  // as written in files
    E value;
};

class ObjectReader;

class JsonReader {
public:
    using Section = std::function<void(ObjectReader&)>;
    // Describes what is allowed at a key path ("an integer from 1 to 100000"), or returns an
    // empty string; used to complete messages about numbers that do not fit their type.
    using AllowedHint = std::function<std::string(std::string_view path)>;

    explicit JsonReader(std::string label, std::size_t max_errors = 50);

    // Parses strictly: refuses empty input, input over max_json_bytes, nesting deeper than
    // max_json_depth and duplicate keys. Returns nullopt after recording an error. Never throws.
    [[nodiscard]] std::optional<nlohmann::json> parse(std::string_view text);

    // Reads `doc` as the top-level object: runs `read`, then reports unknown keys.
    // Returns false (with an error recorded) when `doc` is not an object.
    bool object(const nlohmann::json& doc, const Section& read);

    // Records "<label>: <path>: <problem>" ("<label>: <problem>" for an empty path).
    void error(std::string_view path, std::string_view problem);

    void set_allowed_hint(AllowedHint hint) { hint_ = std::move(hint); }
    [[nodiscard]] std::string allowed_at(std::string_view path) const;

    [[nodiscard]] const std::string& label() const noexcept { return label_; }
    [[nodiscard]] bool ok() const noexcept { return errors_.empty(); }
    [[nodiscard]] std::size_t error_count() const noexcept { return errors_.size() + suppressed_; }
    [[nodiscard]] bool error_budget_left() const noexcept { return errors_.size() < max_errors_; }
    // The messages so far (with a final "N more errors not shown" line when capped).
    [[nodiscard]] std::vector<std::string> take_errors();

private:
    std::string label_;
    std::size_t max_errors_;
    std::size_t suppressed_ = 0;
    std::vector<std::string> errors_;
    AllowedHint hint_;
};

class ObjectReader {
public:
    ObjectReader(JsonReader& reader, const nlohmann::json& object, std::string path);
    ObjectReader(const ObjectReader&) = delete;
    ObjectReader& operator=(const ObjectReader&) = delete;

    // Each read marks `key` as known. It returns true when the key was present and its value
    // was stored in `out`. A missing required key or a value of the wrong type records an
    // error and leaves `out` unchanged; a missing optional key leaves `out` (the default) alone.
    // Integers must be JSON integers or integral numbers (8.0) that fit in T.
    template <std::integral T>
    bool required_int(std::string_view key, T& out) {
        return read_int(key, out, true);
    }
    template <std::integral T>
    bool optional_int(std::string_view key, T& out) {
        return read_int(key, out, false);
    }
    bool required_number(std::string_view key, double& out) { return read_number(key, out, true); }
    bool optional_number(std::string_view key, double& out) { return read_number(key, out, false); }
    bool required_bool(std::string_view key, bool& out) { return read_bool(key, out, true); }
    bool optional_bool(std::string_view key, bool& out) { return read_bool(key, out, false); }
    bool required_string(std::string_view key, std::string& out) { return read_string(key, out, true); }
    bool optional_string(std::string_view key, std::string& out) { return read_string(key, out, false); }

    // A string that must be one of `names`.
    template <class E>
    bool required_enum(std::string_view key, E& out, std::type_identity_t<std::span<const EnumName<E>>> names) {
        return read_enum(key, out, names, true);
    }
    template <class E>
    bool optional_enum(std::string_view key, E& out, std::type_identity_t<std::span<const EnumName<E>>> names) {
        return read_enum(key, out, names, false);
    }

    // A string that must be one of `names`: its index in `names` (the enumeration's value).
    bool required_choice(std::string_view key, std::size_t& out, std::span<const std::string_view> names) {
        return read_choice_into(key, out, names, true);
    }
    bool optional_choice(std::string_view key, std::size_t& out, std::span<const std::string_view> names) {
        return read_choice_into(key, out, names, false);
    }

    // A nested object: `read` reads its keys, then its unknown keys are reported.
    bool required_object(std::string_view key, const JsonReader::Section& read) { return nested(key, read, true); }
    bool optional_object(std::string_view key, const JsonReader::Section& read) { return nested(key, read, false); }

    // The raw value (nullptr when absent), marked as known: for arrays and other shapes.
    [[nodiscard]] const nlohmann::json* value(std::string_view key);
    [[nodiscard]] bool has(std::string_view key) const;
    void allow(std::string_view key);  // mark as known without reading it
    void allow_all();                  // mark every present key as known (stop reading)

    [[nodiscard]] std::string path_of(std::string_view key) const;
    // error() for problems phrased "= <value>: <what is allowed>": the value joins the key path.
    void value_error(std::string_view key, const std::string& text);
    [[nodiscard]] const std::string& path() const noexcept { return path_; }
    void error(std::string_view key, std::string_view problem);
    [[nodiscard]] JsonReader& reader() noexcept { return reader_; }

    // Reports keys that no read asked for. JsonReader::object and the nested readers call it.
    void report_unknown_keys();

private:
    // Finds `key`, marks it known; records "missing (required)" when required and absent.
    const nlohmann::json* lookup(std::string_view key, bool required);
    bool read_int(std::string_view key, long long& out, long long min, long long max, bool required);
    bool read_number(std::string_view key, double& out, bool required);
    bool read_bool(std::string_view key, bool& out, bool required);
    bool read_string(std::string_view key, std::string& out, bool required);
    bool nested(std::string_view key, const JsonReader::Section& read, bool required);
    // Index of the value's string in `names`, or nullopt after recording an error.
    std::optional<std::size_t> read_choice(std::string_view key, std::span<const std::string_view> names, bool required);

    bool read_choice_into(std::string_view key, std::size_t& out, std::span<const std::string_view> names, bool required) {
        const auto i = read_choice(key, names, required);
        if (i) out = *i;
        return i.has_value();
    }

    template <std::integral T>
    bool read_int(std::string_view key, T& out, bool required) {
        static_assert(std::numeric_limits<T>::max() <= std::numeric_limits<long long>::max());
        long long v = 0;
        if (!read_int(key, v, std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), required)) return false;
        out = static_cast<T>(v);  // in range: checked above
        return true;
    }

    template <class E>
    bool read_enum(std::string_view key, E& out, std::span<const EnumName<E>> names, bool required) {
        std::vector<std::string_view> texts;
        texts.reserve(names.size());
        for (const auto& n : names) texts.push_back(n.name);
        const auto i = read_choice(key, texts, required);
        if (!i) return false;
        out = names[*i].value;
        return true;
    }

    JsonReader& reader_;
    const nlohmann::json& object_;
    std::string path_;
    std::vector<std::string> known_;  // keys asked for, in the order asked (for messages)
};

// Reads a whole file for parsing, refusing files over max_json_bytes without reading them.
// Returns an empty string on success, otherwise the problem ("cannot open: No such file or
// directory") for the caller to prefix with the file name. Never blocks on an idle FIFO.
[[nodiscard]] std::string read_json_file(const std::filesystem::path& file, std::string& text);

// Helpers for messages, shared with callers that build their own problems.
// A string as a JSON literal for messages, shortened when long: "fp12".
[[nodiscard]] std::string quote_for_message(std::string_view s);
// "string \"many\"", "1.5", "true", "an array", ... (long strings are shortened).
[[nodiscard]] std::string describe_json_value(const nlohmann::json& v);
// "a.b" or a."odd key" when the key is not a plain identifier.
[[nodiscard]] std::string join_key_path(std::string_view parent, std::string_view key);
// The element of `candidates` closest to `word` by edit distance, if it is close enough.
[[nodiscard]] std::optional<std::string> nearest_name(std::string_view word, std::span<const std::string> candidates);

}  // namespace comet
