#pragma once
// Reading a scenario object that is part of a larger document (a sweep file embeds one under
// "scenario"). Internal to core: scenario_io.cpp implements it, parse_scenario() uses it for
// whole files with an empty prefix.

#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "comet/scenario.hpp"
#include "formats/json_reader.hpp"

namespace comet {

// Reads `doc` as a scenario object whose keys sit under `path_prefix` ("" for the top level of
// a scenario file, "scenario" for the object embedded in a sweep file): the header, the
// sections and, when those are sound, the ranges of check_config(). Errors go to `r` with the
// prefix in their key paths ("scenario.model.layers: missing (required)"). Returns the
// scenario when this call recorded no error. For type errors with range hints, give `r` an
// allowed-hint that maps prefixed paths through scenario_allowed_hint().
[[nodiscard]] std::optional<Scenario> read_scenario_json(JsonReader& r, const nlohmann::json& doc, std::string_view path_prefix);

// What is allowed at a scenario key path ("model.layers"), from the range-rule table.
[[nodiscard]] std::string scenario_allowed_hint(std::string_view path);

}  // namespace comet
