#pragma once
// The parameter forms: one group box per part of the configuration (node, networks, cluster,
// model, training, strategy), built from field_table.hpp. Every valid edit becomes an undoable
// ScenarioDocument::setConfig(); an edit that check_config() rejects is marked on its field and
// not applied; a structurally infeasible configuration (tp does not divide the heads, ...) is
// applied and hinted on the strategy fields behind it. Fields the configuration ignores (the
// expert fields of a dense model) are disabled. The panel has no scroll area of its own: put it
// in one.

#include <QWidget>
#include <map>
#include <vector>

#include "comet/check.hpp"
#include "comet/presets.hpp"

class QComboBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QVBoxLayout;

namespace comet {
struct ValidationRun;
}

namespace comet::ui {

class DlrmTablesEditor;
class ScenarioDocument;
struct FieldSpec;
enum class FieldGroup;

class ParameterPanel : public QWidget {
    Q_OBJECT
public:
    enum class Mark { none, hint, error };  // by severity: an error outranks a hint on one field
    struct MarkText {
        Mark mark = Mark::none;
        QString message;
    };

    // `doc` must outlive the panel.
    explicit ParameterPanel(ScenarioDocument* doc, QWidget* parent = nullptr);

    // The editor of a key path ("node.hbm_bandwidth_gbps"): a QSpinBox, QDoubleSpinBox,
    // QCheckBox or QComboBox; nullptr for an unknown path.
    [[nodiscard]] QWidget* editorFor(const QString& path) const;
    // Scrolls the field into view (in the enclosing scroll area) and gives it the focus.
    void focusField(const QString& path);

    // What is shown on a field: an error (edit rejected; the message of check_config()), a hint
    // (structural infeasibility; the text of explain()), or none. The message is also the top of
    // the editor's tooltip and a line under its group. The editor's dynamic property "cometMark"
    // is "error", "hint" or empty.
    [[nodiscard]] Mark markOf(const QString& path) const;
    [[nodiscard]] QString markMessage(const QString& path) const;

    // Reads the preset folders again (after the user saved a preset).
    void reloadPresets();
    [[nodiscard]] QComboBox* nodePresetPicker() const noexcept { return node_picker_; }
    [[nodiscard]] QComboBox* modelPresetPicker() const noexcept { return model_picker_; }
    // The DLRM's table groups and MLP widths (shown with the DLRM group).
    [[nodiscard]] DlrmTablesEditor* dlrmTablesEditor() const noexcept { return dlrm_tables_; }
    // What the last preset pick changed ("precision fp16 → bf16, ..."), under its picker, while
    // that pick is the latest undo step; empty otherwise.
    [[nodiscard]] QString presetNote(bool node) const;
    // The model's size under its preset picker: "175 B", "46.7 B total, 12.9 B active".
    [[nodiscard]] QString parametersText() const;
    // How the node preset validates against published runs, under the node picker (objectName
    // "nodeValidation"; "Checking…" until the validation, computed on a worker, is in).
    [[nodiscard]] QString validationText() const;
    // How the software preset validates, over every hardware and on the node preset, under the
    // software picker (objectName "softwareValidation"); empty while the software group is hidden.
    [[nodiscard]] QString softwareValidationText() const;

    // Tighter spacing for small screens.
    void setCompact(bool compact);
    [[nodiscard]] bool isCompact() const noexcept { return compact_; }

Q_SIGNALS:
    // An edit was not applied; `message` says why (for a status bar).
    void editRejected(const QString& path, const QString& message);
    // A preset was applied; `summary` lists what changed (for a status bar).
    void presetApplied(const QString& summary);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Editor {
        const FieldSpec* field = nullptr;
        QWidget* widget = nullptr;
        int group = 0;
        Mark mark = Mark::none;
        QString message;
    };
    struct Group {
        QGroupBox* box = nullptr;
        QFormLayout* form = nullptr;
        QLabel* status = nullptr;
    };

    void buildGroups(QVBoxLayout* column);
    Group makeGroup(FieldGroup g);
    void addParametersRow(int group);
    void addValidationRow(int group, bool software);
    void addStagesRow(int group);
    void showValidation();
    void addRow(int group, const QString& label, QWidget* editor, QString& used_letters);
    QWidget* makeEditor(const FieldSpec& f, int index);
    QWidget* makeSpinBox(const FieldSpec& f, int index);
    void alignLabels();
    QComboBox* makeNodePicker();
    QComboBox* makeModelPicker();
    QComboBox* makeSoftwarePicker();

    [[nodiscard]] int indexOf(const QString& path) const;
    [[nodiscard]] double valueOf(int index) const;
    void showValue(int index, double value);
    void refresh();
    void showApplicable(const Config& c);
    void refreshPresetPickers();
    void onEdited(int index);
    void onDlrmEdited(const DlrmSpec& spec);
    void keepPendingEdit(int index, double value);
    [[nodiscard]] Config withPending(Config c) const;
    [[nodiscard]] std::vector<MarkText> marksWithPending(const Config& c) const;
    void pickNodePreset(int item);
    void pickModelPreset(int item);
    void pickSoftwarePreset(int item);
    void showPresetNote(QLabel* note, const QString& preset, const std::vector<std::string>& changes, const QString& extra);

    [[nodiscard]] std::vector<MarkText> marksFor(const Config& c) const;
    void setMarks(const std::vector<MarkText>& marks);
    void showMark(Editor& e);
    void showGroupStatus(int group);

    ScenarioDocument* doc_;
    std::vector<Editor> editors_;  // in all_fields() order
    // Typed values the document does not hold yet because, with it, the configuration breaks a
    // rule (an expanded tier's capacity typed before its bandwidth): editor index -> value. They
    // stay shown and marked, and are applied with the edit that makes them consistent. Undo, redo,
    // opening a file or picking a preset (a change the panel did not make) drops them.
    std::map<int, double> pending_;
    bool keep_pending_ = false;    // set while the panel applies an edit that leaves others pending
    std::vector<Group> groups_;    // in all_groups() order
    std::vector<QLabel*> labels_;  // row labels of every group
    std::vector<NodePreset> node_presets_;
    std::vector<ModelPreset> model_presets_;
    std::vector<SoftwarePreset> software_presets_;
    QComboBox* node_picker_ = nullptr;
    QComboBox* model_picker_ = nullptr;
    QComboBox* software_picker_ = nullptr;
    QLabel* parameters_ = nullptr;
    QLabel* validation_label_ = nullptr;           // how the node preset validates
    QLabel* software_validation_label_ = nullptr;  // how the software preset validates
    QLabel* stages_ = nullptr;                     // layers per pipeline stage
    DlrmTablesEditor* dlrm_tables_ = nullptr;
    const ValidationRun* validation_ = nullptr;  // shipped_validation(), once computed
    QLabel* node_note_ = nullptr;                // what the last node preset changed
    QLabel* model_note_ = nullptr;               // what the last model preset changed
    QLabel* software_note_ = nullptr;            // what the last software preset changed
    int note_index_ = -1;                        // undo index right after that pick
    QVBoxLayout* column_ = nullptr;
    bool compact_ = false;
};

}  // namespace comet::ui
