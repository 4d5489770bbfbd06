#include "common/validation_status.hpp"

#include <QCoreApplication>
#include <string>

namespace comet::ui {

const ValidationRun& shipped_validation() {
    static const ValidationRun run = [] {
        std::vector<std::string> errors;
        const auto nodes = load_node_presets(errors);
        const auto models = load_model_presets(errors);
        const auto software = load_software_presets(errors);
        return run_validation(validation_files(presets_dir() / "validation"), nodes, models, software);
    }();
    return run;
}

QString validation_text(const ValidationRun& run, const std::string& preset_id, const std::string& name) {
    if (preset_id.empty())
        return QCoreApplication::translate("comet::ui::Validation",
                                           "Edited node: not validated against published runs (no node preset matches it)");
    return QString::fromStdString(validation_summary(run, preset_id, name));
}

QString validation_text_for(const ValidationRun& run, const NodeSpec& node, const std::vector<NodePreset>& presets) {
    for (const NodePreset& p : presets)
        if (p.node == node) return validation_text(run, p.id, p.info.name);
    return validation_text(run, {}, {});
}

QString software_validation_text_for(const ValidationRun& run, const SoftwareSpec& software,
                                     const std::vector<SoftwarePreset>& software_presets, const NodeSpec& node,
                                     const std::vector<NodePreset>& node_presets) {
    const NodePreset* on = nullptr;
    for (const NodePreset& p : node_presets)
        if (p.node == node) {
            on = &p;
            break;
        }
    for (const SoftwarePreset& p : software_presets)
        if (p.software == software)
            return QString::fromStdString(
                software_validation_summary(run, p.id, p.info.name, on ? on->id : std::string(), on ? on->info.name : std::string()));
    return QCoreApplication::translate("comet::ui::Validation",
                                       "Edited software: not validated against published runs (no software preset matches it)");
}

}  // namespace comet::ui
