// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/mnemonics.h"

#include <QAbstractButton>
#include <QKeySequence>
#include <QLabel>
#include <QSet>

namespace ss::ui {

void giveButtonsMnemonics(QWidget& dialog)
{
    QSet<QKeySequence> taken;
    QList<QAbstractButton*> bare;
    for (QAbstractButton* button : dialog.findChildren<QAbstractButton*>()) {
        if (const QKeySequence key = QKeySequence::mnemonic(button->text()); !key.isEmpty())
            taken << key;
        else if (!button->text().isEmpty())
            bare << button;
    }
    for (const QLabel* label : dialog.findChildren<QLabel*>())
        if (label->buddy()) taken << QKeySequence::mnemonic(label->text());
    for (QAbstractButton* button : bare) {
        const QString text = button->text();
        for (qsizetype at = 0; at < text.size(); ++at) {
            if (!text[at].isLetter()) continue;
            const QString marked = text.left(at) + u'&' + text.mid(at);
            const QKeySequence key = QKeySequence::mnemonic(marked);
            if (key.isEmpty() || taken.contains(key)) continue;
            taken << key;
            button->setText(marked);
            break;
        }
    }
}

} // namespace ss::ui
