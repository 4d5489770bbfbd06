#include "forms/parameter_panel.hpp"

#include <QCheckBox>
#include <QCoreApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFrame>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyle>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>

#include "comet/evaluate.hpp"
#include "comet/fields.hpp"
#include "comet/report.hpp"
#include "comet/workload.hpp"
#include "common/metrics.hpp"
#include "common/scenario_document.hpp"
#include "common/validation_status.hpp"
#include "forms/dlrm_tables_editor.hpp"

#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include "forms/field_table.hpp"
#include "forms/preset_picker.hpp"

namespace comet::ui {

namespace {

// Undo merge ids: base + field index, so that spin-box steps on one field merge into one step.
constexpr int merge_base = 0x464f0000;
constexpr const char* mark_property = "cometMark";
const QColor error_color(0xc6, 0x28, 0x28);
const QColor hint_color(0xa8, 0x62, 0x00);

// The mark is a frame laid over the editor rather than a border on the editor itself: a
// style-sheet border makes Qt draw the whole spin box or combo box, losing its native look.
const char* const style_sheet = R"(
QFrame#markFrame[cometMark="error"] { border: 2px solid #d32f2f; border-radius: 4px; }
QFrame#markFrame[cometMark="hint"] { border: 2px solid #f0a000; border-radius: 4px; }
)";
constexpr QLatin1StringView mark_frame_name("markFrame");

QFrame* mark_frame_of(QWidget* editor) { return editor->findChild<QFrame*>(QString(mark_frame_name), Qt::FindDirectChildrenOnly); }

// Check boxes span the row: frame the box and its text only.
void place_mark_frame(QWidget* editor) {
    QFrame* frame = mark_frame_of(editor);
    if (!frame) return;
    QRect r = editor->rect();
    if (qobject_cast<QCheckBox*>(editor)) r.setWidth(std::min(r.width(), editor->sizeHint().width() + 6));
    frame->setGeometry(r);
    frame->raise();
}

// Reals without trailing zeros ("2039 GB/s", "0.9") while keeping `decimals` digits of precision.
class RealSpinBox : public QDoubleSpinBox {
public:
    using QDoubleSpinBox::QDoubleSpinBox;

    [[nodiscard]] QString textFromValue(double value) const override {
        QLocale l = locale();
        l.setNumberOptions(QLocale::OmitGroupSeparator);
        QString text = l.toString(value, 'f', decimals());
        const QString point = l.decimalPoint();
        if (text.contains(point)) {
            while (text.endsWith(u'0')) text.chop(1);
            if (text.endsWith(point)) text.chop(point.size());
        }
        return text;
    }
};

QString escape_ampersands(QString text) { return text.replace(u'&', QStringLiteral("&&")); }

// `text` with a mnemonic on a letter not yet used in its group, preferring the starts of words.
QString with_mnemonic(const QString& text, QString& used) {
    auto pick = [&](bool word_start) {
        for (qsizetype i = 0; i < text.size(); ++i) {
            const QChar c = text[i].toLower();
            if (!c.isLetter() || used.contains(c)) continue;
            if (word_start && i > 0 && text[i - 1].isLetterOrNumber()) continue;
            return i;
        }
        return qsizetype(-1);
    };
    qsizetype at = pick(true);
    if (at < 0) at = pick(false);
    if (at >= 0) used += text[at].toLower();
    QString out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (i == at) out += u'&';
        out += text[i] == u'&' ? QStringLiteral("&&") : QString(text[i]);
    }
    return out;
}

QString paragraph(const QString& text, const QColor& color = {}, bool bold = false) {
    QString html = text.toHtmlEscaped().replace(u'\n', QStringLiteral("<br>"));
    if (bold) html = QStringLiteral("<b>") + html + QStringLiteral("</b>");
    if (!color.isValid()) return QStringLiteral("<p>") + html + QStringLiteral("</p>");
    return QStringLiteral("<p style=\"color:%1\">%2</p>").arg(color.name(), html);
}

QColor mark_color(ParameterPanel::Mark m) { return m == ParameterPanel::Mark::error ? error_color : hint_color; }

// What the knob means, its key path and range, and above them the current error or hint.
QString tooltip_html(const FieldSpec& f, ParameterPanel::Mark mark, const QString& message) {
    QString html;
    if (mark != ParameterPanel::Mark::none) html += paragraph(message, mark_color(mark), true);
    html += paragraph(f.tooltip);
    QString key = QString::fromLatin1(f.path);
    if (const FieldRule* rule = rule_for(key)) key += QStringLiteral(" must be ") + QString::fromUtf8(rule->allowed);
    html += paragraph(key, QColor(Qt::gray));
    return html;
}

void add_mark(std::vector<ParameterPanel::MarkText>& marks, int index, ParameterPanel::Mark mark, const QString& text) {
    if (index < 0) return;
    auto& m = marks[static_cast<std::size_t>(index)];
    if (mark > m.mark) {
        m = {mark, text};
    } else if (mark == m.mark && !m.message.contains(text)) {
        m.message += u'\n' + text;
    }
}

void add_mark_frame(QWidget* editor) {
    auto* frame = new QFrame(editor);
    frame->setObjectName(QString(mark_frame_name));
    frame->setAttribute(Qt::WA_TransparentForMouseEvents);
    frame->setFocusPolicy(Qt::NoFocus);
    frame->hide();
}

void shrinkable(QComboBox* combo) {
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(8);
}

void repolish(QWidget* w) {
    w->style()->unpolish(w);
    w->style()->polish(w);
    w->update();
}

template <class Box>
void configure_spin_box(Box* s, const FieldSpec& f) {
    s->setSuffix(f.unit);
    s->setKeyboardTracking(false);  // one edit per Enter or focus change, not per keystroke
    s->setAccelerated(true);
    s->setFocusPolicy(Qt::StrongFocus);
    s->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    if (!f.zero_text.isEmpty() && s->minimum() <= 0) s->setSpecialValueText(f.zero_text);  // shown at the minimum (0, or -1)
    if (f.step > 0)
        s->setSingleStep(static_cast<decltype(s->singleStep())>(f.step));
    else
        s->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
}

// True when every field under `prefix` ("node.") reads the same from both configurations;
// fields that neither uses (the expert fields of two dense models) do not count.
bool same_fields(const Config& a, const Config& b, const char* prefix) {
    return std::all_of(all_fields().begin(), all_fields().end(), [&](const FieldSpec& f) {
        if (!QLatin1String(f.path).startsWith(QLatin1String(prefix))) return true;
        return (!field_applies(f, a) && !field_applies(f, b)) || f.get(a) == f.get(b);
    });
}

QAbstractScrollArea* enclosing_scroll_area(QWidget* w) {
    for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
        if (auto* area = qobject_cast<QAbstractScrollArea*>(p)) return area;
    return nullptr;
}

QString rich_tooltip(const std::string& text) { return paragraph(QString::fromStdString(text)); }

// A preset's item: its whole name, and as tooltip that name (the closed picker may show only its
// short name) and its source.
template <class Preset>
void add_preset_item(QComboBox* picker, const Preset& p) {
    const QString name = QString::fromStdString(p.info.name);
    picker->addItem(name);
    picker->setItemData(picker->count() - 1, QString(paragraph(name, {}, true) + rich_tooltip(p.info.source)), Qt::ToolTipRole);
}

// Item 0 is the placeholder; item i + 1 is presets[i].
template <class Preset>
QComboBox* new_preset_picker(const QString& object_name, const QString& placeholder, const std::vector<Preset>& presets) {
    auto* picker = new PresetPicker;
    picker->setObjectName(object_name);
    shrinkable(picker);
    picker->setFocusPolicy(Qt::StrongFocus);
    picker->addItem(placeholder);
    for (const Preset& p : presets) add_preset_item(picker, p);
    return picker;
}

// The picker item of the first preset whose `part` (node or model) equals the configuration's.
template <class Preset, class Part>
int matching_item(const Config& c, const std::vector<Preset>& presets, Part Config::*part, Part Preset::*spec, const char* prefix) {
    for (std::size_t i = 0; i < presets.size(); ++i) {
        Config preset = c;
        preset.*part = presets[i].*spec;
        if (same_fields(c, preset, prefix)) return static_cast<int>(i) + 1;
    }
    return 0;
}

// The model picker's item: a transformer preset by its model fields, a DLRM preset by its whole
// shape (tables and MLPs), never one of the other workload (two DLRMs share every model. field).
int matching_model_item(const Config& c, const std::vector<ModelPreset>& presets) {
    for (std::size_t i = 0; i < presets.size(); ++i) {
        const ModelPreset& p = presets[i];
        if (p.workload != c.workload) continue;
        Config preset = c;
        preset.model = p.model;
        if (c.workload == Workload::dlrm ? p.dlrm == c.dlrm : same_fields(c, preset, "model.")) return static_cast<int>(i) + 1;
    }
    return 0;
}

void select_item(QComboBox* picker, int item, const QString& tooltip_without_match) {
    const QSignalBlocker block(picker);
    picker->setCurrentIndex(item);
    picker->setToolTip(item > 0 ? picker->itemData(item, Qt::ToolTipRole).toString() : tooltip_without_match);
}

}  // namespace

ParameterPanel::ParameterPanel(ScenarioDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    setObjectName(QStringLiteral("ParameterPanel"));
    setStyleSheet(QString::fromLatin1(style_sheet));
    column_ = new QVBoxLayout(this);
    buildGroups(column_);
    column_->addStretch(1);
    setCompact(false);
    alignLabels();
    connect(doc_, &ScenarioDocument::changed, this, &ParameterPanel::refresh);
    // The validation against published runs takes a fraction of a second: off the GUI thread, once.
    // A watcher owned by the panel, not QFuture::then(this, ...): Qt 6.4 asserts when the
    // context object is gone before the future finishes (a panel closed within that time).
    auto* watcher = new QFutureWatcher<const ValidationRun*>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        validation_ = watcher->result();
        showValidation();
        watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run([] { return &shipped_validation(); }));
    // A preset's note stays while its pick is the latest undo step (not after undo or other edits).
    connect(doc_->undoStack(), &QUndoStack::indexChanged, this, [this](int index) {
        if (index == note_index_) return;
        node_note_->hide();
        model_note_->hide();
        software_note_->hide();
    });
    refresh();
}

// ---- construction ----------------------------------------------------------------------------

void ParameterPanel::buildGroups(QVBoxLayout* column) {
    const auto fields = all_fields();
    editors_.resize(fields.size());
    std::vector<QWidget*> chain;  // tab order = form order
    for (const FieldGroup g : all_groups()) {
        const int gi = static_cast<int>(groups_.size());
        groups_.push_back(makeGroup(g));
        column->addWidget(groups_.back().box);
        QString used;  // mnemonic letters taken in this group
        QComboBox* picker = g == FieldGroup::node_compute ? makeNodePicker()
                            : g == FieldGroup::model      ? makeModelPicker()
                            : g == FieldGroup::software   ? makeSoftwarePicker()
                                                          : nullptr;
        if (picker) {
            // The picker spans the group beside a short label: a long preset name ("Megatron 1T
            // (GPT, 1008B)") would be cut in the fields' column at 1280x720.
            auto* text = new QLabel(with_mnemonic(tr("Preset"), used));
            text->setBuddy(picker);
            auto* row = new QHBoxLayout;
            row->addWidget(text);
            row->addWidget(picker, 1);
            groups_[static_cast<std::size_t>(gi)].form->addRow(row);
            chain.push_back(picker);
            auto* note = new QLabel;
            note->setObjectName(g == FieldGroup::model      ? QStringLiteral("modelPresetNote")
                                : g == FieldGroup::software ? QStringLiteral("softwarePresetNote")
                                                            : QStringLiteral("nodePresetNote"));
            note->setWordWrap(true);
            note->setTextInteractionFlags(Qt::TextSelectableByMouse);
            note->hide();
            groups_[static_cast<std::size_t>(gi)].form->addRow(note);
            (g == FieldGroup::model ? model_note_ : g == FieldGroup::software ? software_note_ : node_note_) = note;
            if (g == FieldGroup::node_compute || g == FieldGroup::software) addValidationRow(gi, g == FieldGroup::software);
        }
        if (g == FieldGroup::model) addParametersRow(gi);
        for (std::size_t i = 0; i < fields.size(); ++i) {
            if (fields[i].group != g) continue;
            QWidget* w = makeEditor(fields[i], static_cast<int>(i));
            editors_[i] = Editor{&fields[i], w, gi, Mark::none, {}};
            addRow(gi, fields[i].label, w, used);
            chain.push_back(w);
        }
        if (g == FieldGroup::strategy) addStagesRow(gi);
        if (g == FieldGroup::dlrm) {
            dlrm_tables_ = new DlrmTablesEditor;
            dlrm_tables_->setObjectName(QStringLiteral("dlrmTablesEditor"));
            connect(dlrm_tables_, &DlrmTablesEditor::edited, this, &ParameterPanel::onDlrmEdited);
            groups_[static_cast<std::size_t>(gi)].form->addRow(dlrm_tables_);
            chain.push_back(dlrm_tables_->table());
            chain.push_back(dlrm_tables_->addButton());
            chain.push_back(dlrm_tables_->removeButton());
            chain.push_back(dlrm_tables_->bottomMlp());
            chain.push_back(dlrm_tables_->topMlp());
        }
    }
    for (std::size_t i = 1; i < chain.size(); ++i) QWidget::setTabOrder(chain[i - 1], chain[i]);
}

// A read-only row: the model's parameters, total and (for a mixture of experts) active.
void ParameterPanel::addParametersRow(int group) {
    parameters_ = new QLabel;
    parameters_->setObjectName(QStringLiteral("modelParameters"));
    parameters_->setWordWrap(true);  // a DLRM's size is a sentence
    parameters_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    parameters_->setToolTip(
        tr("Parameters of the whole model and, for a mixture of experts, those one token touches "
           "(attention, dense layers, shared experts and its top-k routed experts)."));
    auto* text = new QLabel(tr("Parameters"));
    text->setToolTip(parameters_->toolTip());
    groups_[static_cast<std::size_t>(group)].form->addRow(text, parameters_);
    labels_.push_back(text);
}

// A read-only line under the node preset (how that hardware validates against published runs)
// and under the software preset (how that software does, over every hardware and on this node).
void ParameterPanel::addValidationRow(int group, bool software) {
    auto* label = new QLabel(tr("Checking against published runs…"));
    label->setObjectName(software ? QStringLiteral("softwareValidation") : QStringLiteral("nodeValidation"));
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setToolTip(software ? tr("The model's iteration time against the published training runs that used this software "
                                    "(presets/validation, comet-cli validate), over every hardware and on this node: mean, "
                                    "signed (negative: predicted faster than measured) and worst error.")
                               : tr("The model's iteration time against the published training runs on this hardware "
                                    "(presets/validation, comet-cli validate): mean, signed (negative: predicted faster than "
                                    "measured) and worst error, and how many predictions were slower or faster than measured."));
    groups_[static_cast<std::size_t>(group)].form->addRow(label);
    (software ? software_validation_label_ : validation_label_) = label;
}

// A read-only row: the layers of each pipeline stage.
void ParameterPanel::addStagesRow(int group) {
    stages_ = new QLabel;
    stages_->setObjectName(QStringLiteral("stageLayout"));
    stages_->setWordWrap(true);
    stages_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    stages_->setToolTip(
        tr("Layers of the first pipeline stage, the middle stages and the last stage, from pp, the "
           "interleaving and the stage layout fields above."));
    groups_[static_cast<std::size_t>(group)].form->addRow(stages_);
}

void ParameterPanel::showValidation() {
    if (!validation_ || !validation_label_) return;
    const int item = node_picker_->currentIndex();
    const auto i = static_cast<std::size_t>(item - 1);
    const bool node_preset = item > 0 && i < node_presets_.size();
    validation_label_->setText(node_preset ? validation_text(*validation_, node_presets_[i].id, node_presets_[i].info.name)
                                           : validation_text(*validation_, {}, {}));
    if (!software_validation_label_ || !software_picker_) return;
    const int s_item = software_picker_->currentIndex();
    const auto s = static_cast<std::size_t>(s_item - 1);
    if (s_item <= 0 || s >= software_presets_.size()) {
        software_validation_label_->setText(tr("Edited software: not validated against published runs (no software preset matches it)"));
        return;
    }
    software_validation_label_->setText(QString::fromStdString(software_validation_summary(
        *validation_, software_presets_[s].id, software_presets_[s].info.name, node_preset ? node_presets_[i].id : std::string(),
        node_preset ? node_presets_[i].info.name : std::string())));
}

ParameterPanel::Group ParameterPanel::makeGroup(FieldGroup g) {
    auto* box = new QGroupBox(escape_ampersands(group_title(g)), this);
    auto* layout = new QVBoxLayout(box);
    auto* form = new QFormLayout;
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->addLayout(form);
    auto* status = new QLabel(box);
    status->setObjectName(QStringLiteral("status"));
    status->setWordWrap(true);
    status->setTextFormat(Qt::RichText);
    status->hide();
    layout->addWidget(status);
    return {box, form, status};
}

void ParameterPanel::addRow(int group, const QString& label, QWidget* editor, QString& used_letters) {
    QFormLayout* form = groups_[static_cast<std::size_t>(group)].form;
    if (auto* check = qobject_cast<QCheckBox*>(editor)) {
        check->setText(with_mnemonic(label, used_letters));
        form->addRow(check);
        return;
    }
    auto* text = new QLabel(with_mnemonic(label, used_letters));
    text->setBuddy(editor);
    text->setToolTip(editor->toolTip());
    form->addRow(text, editor);
    labels_.push_back(text);
}

// One label width for all groups, so that the fields of every group line up.
void ParameterPanel::alignLabels() {
    int width = 0;
    for (QLabel* l : labels_) {
        l->setMinimumWidth(0);
        width = std::max(width, l->sizeHint().width());
    }
    for (QLabel* l : labels_) l->setMinimumWidth(width);
}

void ParameterPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) alignLabels();
}

QWidget* ParameterPanel::makeEditor(const FieldSpec& f, int index) {
    QWidget* w = nullptr;
    switch (f.kind) {
        case FieldKind::integer:
        case FieldKind::real:
            w = makeSpinBox(f, index);
            break;
        case FieldKind::boolean: {
            auto* check = new QCheckBox;
            check->installEventFilter(this);  // for the mark frame's geometry
            connect(check, &QCheckBox::toggled, this, [this, index] { onEdited(index); });
            w = check;
            break;
        }
        case FieldKind::choice: {
            auto* combo = new QComboBox;
            combo->addItems(f.choices);
            shrinkable(combo);
            combo->setFocusPolicy(Qt::StrongFocus);
            combo->installEventFilter(this);
            connect(combo, &QComboBox::currentIndexChanged, this, [this, index] { onEdited(index); });
            w = combo;
            break;
        }
    }
    w->setObjectName(QString::fromLatin1(f.path));
    w->setToolTip(tooltip_html(f, Mark::none, {}));
    add_mark_frame(w);
    return w;
}

QWidget* ParameterPanel::makeSpinBox(const FieldSpec& f, int index) {
    const FieldRule* rule = rule_for(QString::fromLatin1(f.path));
    const double lo = rule ? rule->min : 0;
    const double hi = rule ? rule->max : 1e9;
    QAbstractSpinBox* box = nullptr;
    if (f.kind == FieldKind::integer) {
        auto* s = new QSpinBox;
        s->setRange(static_cast<int>(lo), static_cast<int>(hi));
        configure_spin_box(s, f);
        connect(s, &QSpinBox::valueChanged, this, [this, index] { onEdited(index); });
        box = s;
    } else {
        auto* s = new RealSpinBox;
        s->setDecimals(f.decimals);
        s->setRange(lo, hi);  // an exclusive minimum stays enterable so check_config() can explain it
        configure_spin_box(s, f);
        connect(s, &QDoubleSpinBox::valueChanged, this, [this, index] { onEdited(index); });
        box = s;
    }
    box->installEventFilter(this);
    if (auto* edit = box->findChild<QLineEdit*>()) edit->installEventFilter(this);  // Ctrl+Z: see eventFilter()
    return box;
}

QComboBox* ParameterPanel::makeNodePicker() {
    std::vector<std::string> errors;
    node_presets_ = load_node_presets(errors);
    for (const std::string& e : errors) qWarning("%s", e.c_str());
    node_picker_ = new_preset_picker(QStringLiteral("nodePresetPicker"), tr("Node preset…"), node_presets_);
    node_picker_->installEventFilter(this);
    connect(node_picker_, &QComboBox::currentIndexChanged, this, &ParameterPanel::pickNodePreset);
    return node_picker_;
}

QComboBox* ParameterPanel::makeModelPicker() {
    std::vector<std::string> errors;
    model_presets_ = load_model_presets(errors);
    for (const std::string& e : errors) qWarning("%s", e.c_str());
    std::stable_sort(model_presets_.begin(), model_presets_.end(),
                     [](const ModelPreset& a, const ModelPreset& b) { return preset_parameters(a) < preset_parameters(b); });
    model_picker_ = new_preset_picker(QStringLiteral("modelPresetPicker"), tr("Model preset…"), model_presets_);
    model_picker_->installEventFilter(this);
    connect(model_picker_, &QComboBox::currentIndexChanged, this, &ParameterPanel::pickModelPreset);
    return model_picker_;
}

QComboBox* ParameterPanel::makeSoftwarePicker() {
    std::vector<std::string> errors;
    software_presets_ = load_software_presets(errors);
    for (const std::string& e : errors) qWarning("%s", e.c_str());
    software_picker_ = new_preset_picker(QStringLiteral("softwarePresetPicker"), tr("Software preset…"), software_presets_);
    software_picker_->installEventFilter(this);
    connect(software_picker_, &QComboBox::currentIndexChanged, this, &ParameterPanel::pickSoftwarePreset);
    return software_picker_;
}

void ParameterPanel::setCompact(bool compact) {
    compact_ = compact;
    column_->setSpacing(compact ? 4 : 10);
    column_->setContentsMargins(compact ? 2 : 6, compact ? 2 : 6, compact ? 2 : 6, compact ? 2 : 6);
    for (const Group& g : groups_) {
        g.form->setVerticalSpacing(compact ? 2 : -1);
        g.box->layout()->setContentsMargins(compact ? 4 : 9, compact ? 4 : 9, compact ? 4 : 9, compact ? 4 : 9);
    }
}

// ---- lookup ----------------------------------------------------------------------------------

int ParameterPanel::indexOf(const QString& path) const {
    for (std::size_t i = 0; i < editors_.size(); ++i)
        if (path == QLatin1String(editors_[i].field->path)) return static_cast<int>(i);
    return -1;
}

QWidget* ParameterPanel::editorFor(const QString& path) const {
    const int i = indexOf(path);
    return i < 0 ? nullptr : editors_[static_cast<std::size_t>(i)].widget;
}

ParameterPanel::Mark ParameterPanel::markOf(const QString& path) const {
    const int i = indexOf(path);
    return i < 0 ? Mark::none : editors_[static_cast<std::size_t>(i)].mark;
}

QString ParameterPanel::markMessage(const QString& path) const {
    const int i = indexOf(path);
    return i < 0 ? QString() : editors_[static_cast<std::size_t>(i)].message;
}

void ParameterPanel::focusField(const QString& path) {
    QWidget* w = editorFor(path);
    if (!w) return;
    if (auto* area = qobject_cast<QScrollArea*>(enclosing_scroll_area(this))) area->ensureWidgetVisible(w);
    w->setFocus(Qt::OtherFocusReason);
    if (auto* spin = qobject_cast<QAbstractSpinBox*>(w)) spin->selectAll();
}

bool ParameterPanel::eventFilter(QObject* watched, QEvent* event) {
    auto* w = qobject_cast<QWidget*>(watched);
    if (w && event->type() == QEvent::Resize) place_mark_frame(w);
    // A wheel turned to scroll the form must not change the value that passes under the mouse:
    // unfocused editors hand it to the enclosing scroll area, and preset pickers always do (the
    // node picker has the focus at start-up, and a preset replaces a whole section).
    // Ctrl+Z (Ctrl+Y) in a field whose text is the document's value undoes (redoes) the last
    // change of the document, as it does elsewhere in the window; a field being typed in keeps
    // its own text undo until the value is entered (issue 40: Ctrl+Z inside a field did nothing).
    // The filter watches a spin box and its line edit (which of them has the focus is Qt's choice).
    const auto* edit = qobject_cast<const QLineEdit*>(w);
    if (w && event->type() == QEvent::ShortcutOverride) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (const auto* spin = qobject_cast<const QAbstractSpinBox*>(w)) edit = spin->findChild<QLineEdit*>();
        if ((key->matches(QKeySequence::Undo) || key->matches(QKeySequence::Redo)) && edit && !edit->isModified()) {
            event->ignore();  // not the field's: the window's shortcut takes it
            return true;
        }
    }
    if (edit) return QWidget::eventFilter(watched, event);
    const bool picker = w && (w == node_picker_ || w == model_picker_);
    if (w && event->type() == QEvent::Wheel && (!w->hasFocus() || picker)) {
        if (QAbstractScrollArea* area = enclosing_scroll_area(this)) {
            const auto* wheel = static_cast<QWheelEvent*>(event);
            QWidget* viewport = area->viewport();
            QWheelEvent forwarded(w->mapTo(viewport, wheel->position()), wheel->globalPosition(), wheel->pixelDelta(), wheel->angleDelta(),
                                  wheel->buttons(), wheel->modifiers(), wheel->phase(), wheel->inverted(), wheel->source());
            QCoreApplication::sendEvent(viewport, &forwarded);
            event->accept();
        } else {
            event->ignore();  // propagates to the parents
        }
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

// ---- values ----------------------------------------------------------------------------------

double ParameterPanel::valueOf(int index) const {
    const Editor& e = editors_[static_cast<std::size_t>(index)];
    switch (e.field->kind) {
        case FieldKind::integer:
            return static_cast<QSpinBox*>(e.widget)->value();
        case FieldKind::real:
            return static_cast<QDoubleSpinBox*>(e.widget)->value();
        case FieldKind::boolean:
            return static_cast<QCheckBox*>(e.widget)->isChecked() ? 1 : 0;
        case FieldKind::choice:
            return static_cast<QComboBox*>(e.widget)->currentIndex();
    }
    return 0;
}

void ParameterPanel::showValue(int index, double value) {
    const Editor& e = editors_[static_cast<std::size_t>(index)];
    const QSignalBlocker block(e.widget);
    switch (e.field->kind) {
        case FieldKind::integer:
            static_cast<QSpinBox*>(e.widget)->setValue(static_cast<int>(std::clamp(value, -2e9, 2e9)));
            break;
        case FieldKind::real:
            static_cast<QDoubleSpinBox*>(e.widget)->setValue(value);
            break;
        case FieldKind::boolean:
            static_cast<QCheckBox*>(e.widget)->setChecked(value != 0);
            break;
        case FieldKind::choice:
            static_cast<QComboBox*>(e.widget)->setCurrentIndex(static_cast<int>(value));
            break;
    }
}

void ParameterPanel::refresh() {
    const Config& c = doc_->config();
    if (!keep_pending_) pending_.clear();
    for (std::size_t i = 0; i < editors_.size(); ++i) showValue(static_cast<int>(i), editors_[i].field->get(c));
    for (const auto& [i, v] : pending_) showValue(i, v);
    showApplicable(c);
    parameters_->setText(parametersText());
    if (stages_) stages_->setText(format_stage_layout(c.model, c.strategy));
    if (dlrm_tables_) dlrm_tables_->setSpec(c.dlrm);
    refreshPresetPickers();
    setMarks(marksWithPending(c));
}

QString ParameterPanel::validationText() const { return validation_label_ ? validation_label_->text() : QString(); }

QString ParameterPanel::softwareValidationText() const {
    return software_validation_label_ && software_validation_label_->isVisibleTo(this) ? software_validation_label_->text() : QString();
}

QString ParameterPanel::parametersText() const {
    const Config& c = doc_->config();
    if (c.workload == Workload::dlrm) return QString::fromStdString(format_dlrm_size(c.dlrm));
    const ModelSpec& m = c.model;
    return format_parameters(total_parameters(m), active_parameters(m));
}

// The table editor's whole spec, checked like a field edit: applied when valid, else its
// problems shown under it (and nothing changes).
void ParameterPanel::onDlrmEdited(const DlrmSpec& spec) {
    Config candidate = doc_->config();
    candidate.dlrm = spec;
    QStringList problems;
    for (const FieldError& e : check_config(candidate))
        if (e.path.rfind("dlrm.", 0) == 0) problems << QString::fromStdString(e.message());
    if (!problems.isEmpty()) {
        dlrm_tables_->showError(problems.join(u'\n'));
        dlrm_tables_->setSpec(doc_->config().dlrm);
        Q_EMIT editRejected(QStringLiteral("dlrm.tables"), problems.join(u'\n'));
        return;
    }
    dlrm_tables_->showError({});
    doc_->setConfig(candidate, tr("Change embedding tables"));
}

// Fields a configuration ignores (the expert fields of a dense model) are greyed out with their labels.
void ParameterPanel::showApplicable(const Config& c) {
    // Fields and groups of the other workload are hidden (a DLRM has no heads, a transformer no tables).
    for (std::size_t g = 0; g < groups_.size(); ++g) groups_[g].box->setVisible(group_for_workload(all_groups()[g], c.workload));
    for (const Editor& e : editors_) {
        const bool shown = field_for_workload(*e.field, c.workload);
        QFormLayout* form = groups_[static_cast<std::size_t>(e.group)].form;
        if (form->indexOf(e.widget) >= 0) form->setRowVisible(e.widget, shown);
    }
    if (stages_) stages_->setVisible(c.workload == Workload::transformer);
    // A DLRM's batch counts samples.
    if (auto* batch = qobject_cast<QSpinBox*>(editorFor(QStringLiteral("training.global_batch"))))
        batch->setSuffix(c.workload == Workload::dlrm ? tr(" samples") : tr(" sequences"));
    for (const Editor& e : editors_) {
        const bool applies = field_applies(*e.field, c);
        if (e.widget->isEnabled() == applies) continue;
        e.widget->setEnabled(applies);
        if (QWidget* label = groups_[static_cast<std::size_t>(e.group)].form->labelForField(e.widget)) label->setEnabled(applies);
    }
}

void ParameterPanel::reloadPresets() {
    std::vector<std::string> errors;
    node_presets_ = load_node_presets(errors);
    model_presets_ = load_model_presets(errors);
    software_presets_ = load_software_presets(errors);
    for (const std::string& e : errors) qWarning("%s", e.c_str());
    std::stable_sort(model_presets_.begin(), model_presets_.end(),
                     [](const ModelPreset& a, const ModelPreset& b) { return preset_parameters(a) < preset_parameters(b); });
    auto refill = [](QComboBox* picker, const auto& presets) {
        const QSignalBlocker block(picker);
        while (picker->count() > 1) picker->removeItem(picker->count() - 1);
        for (const auto& p : presets) add_preset_item(picker, p);
    };
    refill(node_picker_, node_presets_);
    refill(model_picker_, model_presets_);
    refill(software_picker_, software_presets_);
    refreshPresetPickers();
}

void ParameterPanel::refreshPresetPickers() {
    const Config& c = doc_->config();
    select_item(node_picker_, matching_item(c, node_presets_, &Config::node, &NodePreset::node, "node."),
                tr("Replaces every node field with a preset's. No preset matches the current node."));
    select_item(model_picker_, matching_model_item(c, model_presets_),
                tr("Replaces every model field with a preset's. No preset matches the current model."));
    const std::string& now = doc_->scenario().software_info.name;
    // Stacks that differ only in fields this model ignores (a dense model's expert GEMMs) all
    // match: the scenario's own preset is preferred.
    int software_item = matching_item(c, software_presets_, &Config::software, &SoftwarePreset::software, "software.");
    for (std::size_t i = 0; i < software_presets_.size(); ++i)
        if (software_presets_[i].info.name == now && software_presets_[i].software == c.software) software_item = static_cast<int>(i) + 1;
    select_item(software_picker_, software_item,
                tr("Replaces every software field with a preset's. No preset matches the current software (%1).")
                    .arg(now.empty() ? tr("edited") : QString::fromStdString(now)));
    showValidation();
}

// ---- edits -----------------------------------------------------------------------------------

void ParameterPanel::onEdited(int index) {
    const FieldSpec& f = *editors_[static_cast<std::size_t>(index)].field;
    // Entered: the field's text is no longer being typed (Ctrl+Z goes to the document again).
    if (auto* spin = qobject_cast<QAbstractSpinBox*>(editors_[static_cast<std::size_t>(index)].widget))
        if (auto* edit = spin->findChild<QLineEdit*>()) edit->setModified(false);
    const double value = valueOf(index);
    const Config& doc = doc_->config();
    pending_.erase(index);
    if (value == f.get(doc)) {  // back to the document's value
        keep_pending_ = true;
        refresh();
        keep_pending_ = false;
        return;
    }
    // With every value still pending: the edit that makes them consistent applies them all.
    Config all = withPending(doc);
    f.set(all, value);
    if (check_config(all).empty()) {
        pending_.clear();
        doc_->setConfig(all, tr("Change %1").arg(f.label), merge_base + index);
        return;
    }
    // On its own: a valid edit of another field applies, and the pending values stay typed.
    Config alone = doc;
    f.set(alone, value);
    if (!check_config(alone).empty()) {
        keepPendingEdit(index, value);
        return;
    }
    keep_pending_ = true;
    doc_->setConfig(alone, tr("Change %1").arg(f.label), merge_base + index);
    keep_pending_ = false;
}

// A typed value that breaks a rule: it stays in its editor, marked with why, for the user to
// correct it or type the value it needs; the document keeps its value meanwhile.
void ParameterPanel::keepPendingEdit(int index, double value) {
    pending_[index] = value;
    keep_pending_ = true;
    refresh();
    keep_pending_ = false;
    const QString why = markMessage(QString::fromLatin1(editors_[static_cast<std::size_t>(index)].field->path));
    Q_EMIT editRejected(QString::fromLatin1(editors_[static_cast<std::size_t>(index)].field->path), why);
}

Config ParameterPanel::withPending(Config c) const {
    for (const auto& [i, v] : pending_) editors_[static_cast<std::size_t>(i)].field->set(c, v);
    return c;
}

void ParameterPanel::pickNodePreset(int item) {
    if (item <= 0 || item > static_cast<int>(node_presets_.size())) return;
    const NodePreset& p = node_presets_[static_cast<std::size_t>(item - 1)];
    Scenario s = doc_->scenario();
    const std::vector<std::string> changes = apply_node_preset(s, p);
    const QString extra =
        p.price ? QString()
                : tr("No published price: the scenario's GPU price (%1) stays.").arg(QString::fromStdString(format_gpu_price(s.cost)));
    doc_->setScenario(s, tr("Use node preset %1").arg(QString::fromStdString(p.info.name)));
    showPresetNote(node_note_, QString::fromStdString(p.info.name), changes, extra);
}

void ParameterPanel::pickSoftwarePreset(int item) {
    if (item <= 0 || item > static_cast<int>(software_presets_.size())) return;
    const SoftwarePreset& p = software_presets_[static_cast<std::size_t>(item - 1)];
    Scenario s = doc_->scenario();
    std::vector<std::string> changes;
    Config next = s.config;
    next.software = p.software;
    for (const FieldDesc& f : section_fields("software")) {
        const FieldSpec* spec = find_field(QString::fromLatin1(f.path.data(), static_cast<qsizetype>(f.path.size())));
        if (f.get(s.config) == f.get(next) || spec == nullptr) continue;
        auto text = [&](const Config& c) {
            const double v = f.get(c);
            if (f.type == FieldType::choice) return spec->choices.value(static_cast<int>(v)).toStdString();
            if (f.type == FieldType::boolean) return std::string(v != 0 ? "on" : "off");
            return format_printf("%g", v) + spec->unit.toStdString();
        };
        changes.push_back(spec->label.toStdString() + " " + text(s.config) + " -> " + text(next));
    }
    s.config.software = p.software;
    s.software_info = p.info;
    doc_->setScenario(s, tr("Use software preset %1").arg(QString::fromStdString(p.info.name)));
    showPresetNote(software_note_, QString::fromStdString(p.info.name), changes, {});
}

void ParameterPanel::pickModelPreset(int item) {
    if (item <= 0 || item > static_cast<int>(model_presets_.size())) return;
    const ModelPreset& p = model_presets_[static_cast<std::size_t>(item - 1)];
    Scenario s = doc_->scenario();
    const std::vector<std::string> changes = apply_model_preset(s, p);
    QString extra;
    if (!p.training) {
        extra = tr("The preset has no training settings: the scenario's precision, attention, dropout and batch stay.");
    } else if (p.workload == Workload::transformer) {
        QStringList kept;
        if (p.training->batch_tokens == 0)
            kept << tr("its batch is not published: the scenario's %1 sequences stay").arg(s.config.training.global_batch);
        if (p.training->tokens_to_train == 0 && s.cost.tokens_to_train > 0)
            kept << tr("its training tokens are not published: the scenario's budget of %1 stays")
                        .arg(QString::fromStdString(format_token_budget(s.cost.tokens_to_train)));
        if (!kept.isEmpty()) {
            extra = kept.join(QStringLiteral("; ")) + QLatin1Char('.');
            extra[0] = extra[0].toUpper();
        }
    }
    doc_->setScenario(s, tr("Use model preset %1").arg(QString::fromStdString(p.info.name)));
    showPresetNote(model_note_, QString::fromStdString(p.info.name), changes, extra);
}

void ParameterPanel::showPresetNote(QLabel* note, const QString& preset, const std::vector<std::string>& changes, const QString& extra) {
    QStringList parts;
    for (const std::string& c : changes) parts << QString::fromStdString(c);
    QString text =
        parts.isEmpty() ? tr("%1: nothing changed.").arg(preset) : tr("%1 applied: %2.").arg(preset, parts.join(QStringLiteral("; ")));
    if (!extra.isEmpty()) text += QLatin1Char(' ') + extra;
    text += tr(" (Undo: Ctrl+Z)");
    for (QLabel* other : {node_note_, model_note_, software_note_}) other->setVisible(other == note);
    note->setText(text);
    note->setVisible(true);
    note_index_ = doc_->undoStack()->index();
    Q_EMIT presetApplied(text);
}

QString ParameterPanel::presetNote(bool node) const {
    const QLabel* note = node ? node_note_ : model_note_;
    return note->isVisibleTo(this) ? note->text() : QString();
}

// ---- marks -----------------------------------------------------------------------------------

std::vector<ParameterPanel::MarkText> ParameterPanel::marksFor(const Config& c) const {
    std::vector<MarkText> marks(editors_.size());
    const std::vector<FieldError> errors = check_config(c);
    for (const FieldError& e : errors)
        add_mark(marks, indexOf(QString::fromStdString(e.path)), Mark::error, QString::fromStdString(e.message()));
    if (!errors.empty()) return marks;
    const Result r = evaluate(c);
    if (r.feasible) return marks;
    const QString why = QString::fromStdString(explain(r));
    for (const QString& path : fields_behind(r.reason, c)) add_mark(marks, indexOf(path), Mark::hint, why);
    return marks;
}

// The document's marks, and the rules the pending values break: on the fields each rule names
// and, joined, on every pending field (capacity below reserve names the reserve; the capacity
// typed says why too).
std::vector<ParameterPanel::MarkText> ParameterPanel::marksWithPending(const Config& c) const {
    std::vector<MarkText> marks = marksFor(c);
    if (pending_.empty()) return marks;
    QStringList texts;
    for (const FieldError& e : check_config(withPending(c))) {
        const QString text = QString::fromStdString(e.message());
        texts << text;
        add_mark(marks, indexOf(QString::fromStdString(e.path)), Mark::error, text);
    }
    if (!texts.isEmpty())
        for (const auto& [i, v] : pending_) add_mark(marks, i, Mark::error, texts.join(u'\n'));
    return marks;
}

void ParameterPanel::setMarks(const std::vector<MarkText>& marks) {
    for (std::size_t i = 0; i < editors_.size(); ++i) {
        Editor& e = editors_[i];
        if (e.mark == marks[i].mark && e.message == marks[i].message) continue;
        e.mark = marks[i].mark;
        e.message = marks[i].message;
        showMark(e);
    }
    for (std::size_t g = 0; g < groups_.size(); ++g) showGroupStatus(static_cast<int>(g));
}

void ParameterPanel::showMark(Editor& e) {
    const char* name = e.mark == Mark::error ? "error" : e.mark == Mark::hint ? "hint" : "";
    e.widget->setProperty(mark_property, QString::fromLatin1(name));
    QFrame* frame = mark_frame_of(e.widget);
    frame->setProperty(mark_property, QString::fromLatin1(name));
    repolish(frame);
    place_mark_frame(e.widget);
    frame->setVisible(e.mark != Mark::none);
    e.widget->setToolTip(tooltip_html(*e.field, e.mark, e.message));
}

void ParameterPanel::showGroupStatus(int group) {
    QStringList seen;
    QString html;
    for (const Mark mark : {Mark::error, Mark::hint}) {
        for (const Editor& e : editors_) {
            if (e.group != group || e.mark != mark || seen.contains(e.message)) continue;
            seen << e.message;
            html += paragraph(e.message, mark_color(mark));
        }
    }
    QLabel* status = groups_[static_cast<std::size_t>(group)].status;
    status->setText(html);
    status->setVisible(!html.isEmpty());
}

}  // namespace comet::ui
