#pragma once
// How a node preset validates against the published training runs of presets/validation/
// (docs/model.md, "Validation"), as one line for the forms and the report:
// "DGX H100: 6 published runs, mean error 17 % (worst 56 %; 2 slower, 4 faster)".

#include <QString>
#include <vector>

#include "comet/presets.hpp"
#include "comet/spec.hpp"
#include "comet/validation.hpp"

namespace comet::ui {

// The validation of the shipped tables against the node and model presets, computed on the
// first call (a fraction of a second) and kept; thread-safe, so call it first from a worker.
[[nodiscard]] const ValidationRun& shipped_validation();

// The line for a node preset (its id and name); for a node that matches no preset
// (`preset_id` empty), that an edited node is not validated.
[[nodiscard]] QString validation_text(const ValidationRun& run, const std::string& preset_id, const std::string& name);

// The line for a node given by value: the first of `presets` equal to it, else "edited".
[[nodiscard]] QString validation_text_for(const ValidationRun& run, const NodeSpec& node,
                                          const std::vector<NodePreset>& presets);

// The line for the software given by value (the first software preset equal to it, else
// "edited"), over every hardware and on the node (the first node preset equal to it).
[[nodiscard]] QString software_validation_text_for(const ValidationRun& run, const SoftwareSpec& software,
                                                   const std::vector<SoftwarePreset>& software_presets, const NodeSpec& node,
                                                   const std::vector<NodePreset>& node_presets);

}  // namespace comet::ui
