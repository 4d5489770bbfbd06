#pragma once
// Private to core's renderers: the JSON objects more than one of them writes.

#include <nlohmann/json.hpp>

namespace comet {

struct CostReport;

// Every field of a CostReport, in its order (format_cost_json dumps it; compare and analyze embed it).
[[nodiscard]] nlohmann::ordered_json cost_report_json(const CostReport& c);

}  // namespace comet
