#include "forms/preset_picker.hpp"

#include <QFontMetrics>
#include <QStyleOptionComboBox>
#include <QStylePainter>

namespace comet::ui {

QString PresetPicker::shortName(const QString& name) {
    const qsizetype open = name.indexOf(QStringLiteral(" ("));
    return open > 0 ? name.left(open).trimmed() : name;
}

int PresetPicker::fieldWidth() const {
    QStyleOptionComboBox opt;
    initStyleOption(&opt);
    return style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, this).width();
}

QString PresetPicker::displayedText() const {
    QString full = currentText();
    const QFontMetrics fm = fontMetrics();
    const int room = fieldWidth();
    if (fm.horizontalAdvance(full) <= room) return full;
    QString short_name = shortName(full);
    if (fm.horizontalAdvance(short_name) <= room) return short_name;
    // Narrower than any name: Qt's own elision, as a plain combo box would draw it.
    return fm.elidedText(short_name, Qt::ElideRight, room);
}

// QComboBox::paintEvent with the label's text replaced by displayedText().
void PresetPicker::paintEvent(QPaintEvent*) {
    QStylePainter painter(this);
    painter.setPen(palette().color(QPalette::Text));
    QStyleOptionComboBox opt;
    initStyleOption(&opt);
    painter.drawComplexControl(QStyle::CC_ComboBox, opt);
    opt.currentText = displayedText();
    painter.drawControl(QStyle::CE_ComboBoxLabel, opt);
}

}  // namespace comet::ui
