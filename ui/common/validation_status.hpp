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
// The same with the presets the bands are matched on (core load_shipped_validation), kept.
[[nodiscard]] const ShippedValidation& shipped_validation_and_presets();

// The line for a node preset (its id and name); for a node that matches no preset
// (`preset_id` empty), that an edited node is not validated.
[[nodiscard]] QString validation_text(const ValidationRun& run, const std::string& preset_id, const std::string& name);

// The line for a node given by value: the first of `presets` equal to it, else "edited".
[[nodiscard]] QString validation_text_for(const ValidationRun& run, const NodeSpec& node, const std::vector<NodePreset>& presets);

// The line for the software given by value (the first software preset equal to it, else
// "edited"), over every hardware and on the node (the first node preset equal to it).
[[nodiscard]] QString software_validation_text_for(const ValidationRun& run, const SoftwareSpec& software,
                                                   const std::vector<SoftwarePreset>& software_presets, const NodeSpec& node,
                                                   const std::vector<NodePreset>& node_presets);

// How far to trust an answer on `node` with `software` (core's trust_band_for, issue 40) against
// the shipped tables and presets (read once; thread-safe, slow on the first call: call it from a
// worker).
[[nodiscard]] TrustBand shipped_trust_band(const NodeSpec& node, const SoftwareSpec& software, const std::string& software_name);

// The band as a cell ("-6 % to +59 %", "not validated").
[[nodiscard]] QString trust_range_text(const TrustBand& band);
// The band applied to an answer, for a tooltip or a report line: the likely iteration time, cost
// per M tokens and time and cost to train (a value <= 0 is left out) and the basis.
[[nodiscard]] QString trust_band_text(const TrustBand& band, double iteration_s, double cost_per_m_usd, double train_s, double train_usd);
// The MFU flag: "above every published run on this node (best 55 %)", or empty.
[[nodiscard]] QString mfu_flag_text(const TrustBand& band, double mfu);

}  // namespace comet::ui
