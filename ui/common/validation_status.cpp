#include "common/validation_status.hpp"

#include <QCoreApplication>
#include <string>

#include "common/metrics.hpp"

namespace comet::ui {

const ShippedValidation& shipped_validation_and_presets() {
    static const ShippedValidation v = load_shipped_validation();
    return v;
}

const ValidationRun& shipped_validation() { return shipped_validation_and_presets().run; }

QString validation_text(const ValidationRun& run, const std::string& preset_id, const std::string& name) {
    if (preset_id.empty())
        return QCoreApplication::translate("comet::ui::Validation",
                                           "Edited node: not validated against published runs (no node preset matches it)");
    return QString::fromStdString(validation_summary(run, preset_id, name));
}

QString validation_text_for(const ValidationRun& run, const NodeSpec& node, const std::vector<NodePreset>& presets) {
    if (const NodePreset* p = node_preset_of(presets, node)) return validation_text(run, p->id, p->info.name);
    return validation_text(run, {}, {});
}

QString software_validation_text_for(const ValidationRun& run, const SoftwareSpec& software,
                                     const std::vector<SoftwarePreset>& software_presets, const NodeSpec& node,
                                     const std::vector<NodePreset>& node_presets) {
    const NodePreset* on = node_preset_of(node_presets, node);
    if (const SoftwarePreset* p = software_preset_of(software_presets, software))
        return QString::fromStdString(
            software_validation_summary(run, p->id, p->info.name, on ? on->id : std::string(), on ? on->info.name : std::string()));
    return QCoreApplication::translate("comet::ui::Validation",
                                       "Edited software: not validated against published runs (no software preset matches it)");
}

TrustBand shipped_trust_band(const NodeSpec& node, const SoftwareSpec& software, const std::string& software_name) {
    Config c;
    c.node = node;
    c.software = software;
    return shipped_validation_and_presets().band(c, software_name);
}

QString trust_range_text(const TrustBand& band) { return with_minus_sign(QString::fromStdString(format_trust_range(band))); }

QString trust_band_text(const TrustBand& band, double iteration_s, double cost_per_m_usd, double train_s, double train_usd) {
    if (!band.validated())
        return QCoreApplication::translate("comet::ui::Validation",
                                           "Not validated: no published run on this node or software (docs/model.md, \"Validation\")");
    // Each figure scales with the iteration time: its range is the band times it.
    using Format = QString (*)(double);
    const struct {
        const char* what;
        double value;
        Format format;
    } figures[] = {{QT_TRANSLATE_NOOP("comet::ui::Validation", "iteration %1 to %2"), iteration_s, &format_seconds},
                   {QT_TRANSLATE_NOOP("comet::ui::Validation", "%1 to %2 per M tokens"), cost_per_m_usd, &format_money},
                   {QT_TRANSLATE_NOOP("comet::ui::Validation", "time to train %1 to %2"), train_s, &format_duration},
                   {QT_TRANSLATE_NOOP("comet::ui::Validation", "cost to train %1 to %2"), train_usd, &format_money}};
    QStringList parts;
    for (const auto& f : figures)
        if (f.value > 0)
            parts << QCoreApplication::translate("comet::ui::Validation", f.what)
                         .arg(f.format(band.low * f.value), f.format(band.high * f.value));
    QString out = QCoreApplication::translate("comet::ui::Validation", "Likely %1 of the prediction").arg(trust_range_text(band));
    if (!parts.isEmpty()) out += QStringLiteral(": ") + parts.join(QStringLiteral(", "));
    return out + QStringLiteral(". ") +
           QCoreApplication::translate("comet::ui::Validation",
                                       "From %1 published %2 of %3 (mean error %4 %, signed %5 %): the range of measured / predicted time")
               .arg(QString::number(band.runs), band.runs == 1 ? QStringLiteral("run") : QStringLiteral("runs"),
                    QString::fromStdString(band.basis), QString::number(100 * band.mean_abs, 'f', 0),
                    with_minus_sign(QString::asprintf("%+.0f", 100 * band.mean_signed)));
}

QString mfu_flag_text(const TrustBand& band, double mfu) {
    if (!band.mfu_above_published(mfu)) return {};
    return QCoreApplication::translate("comet::ui::Validation", "MFU %1 % is above every published run on this node (highest %2 %)")
        .arg(QString::number(100 * mfu, 'f', 1), QString::number(100 * band.max_measured_mfu, 'f', 1));
}

}  // namespace comet::ui
