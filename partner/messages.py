"""Every text the partner writes ("what I meant"), in each interface language. Written by the team.

A message is a key with ``{name}`` fields; :func:`say` fills it in the interface language, falling back to
English for a language without the key (a test checks that every language has every key).
"""

from __future__ import annotations

from typing import Any

from babel.numbers import format_percent

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "gave": "I said {word} {number}: I meant {meant}",
        "gave_fallback": "I said {word} {number}: I meant {meant} (no safe clue left: the least risky one)",
        "received": "You said {word} {number}: I weighed {considered}; I touched {guessed}; {reason}",
        "received_sd": "Sudden death: I weighed {considered}; I touched {guessed}; {reason}",
        "considered": "{word} ({green} green, {assassin} assassin)",
        "nothing": "nothing",
        "sep": "; ",
        "and": ", ",
        "sd": "no clue comes in sudden death, so I guessed the likeliest green",
        "first": "one guess is required",
        "low_green": "I stopped: the best card left had only a {green} chance of being green",
        "risk": "I stopped: the best card left risked the assassin ({assassin})",
        "go_on": "I went on: it still looked green",
        "wrong": "the turn ended on a wrong card",
        "table": "(a word people link with {cards})",
    },
    "fr": {
        "gave": "J'ai dit {word} {number} : je pensais à {meant}",
        "gave_fallback": "J'ai dit {word} {number} : je pensais à {meant} (plus d'indice sûr : le moins risqué)",
        "received": "Tu as dit {word} {number} : j'ai pesé {considered} ; j'ai touché {guessed} ; {reason}",
        "received_sd": "Mort subite : j'ai pesé {considered} ; j'ai touché {guessed} ; {reason}",
        "considered": "{word} ({green} vert, {assassin} assassin)",
        "nothing": "rien",
        "sep": " ; ",
        "and": ", ",
        "sd": "aucun indice en mort subite : j'ai pris le vert le plus probable",
        "first": "il faut au moins une réponse",
        "low_green": "je me suis arrêtée : la meilleure carte restante n'avait que {green} de chances d'être verte",
        "risk": "je me suis arrêtée : la meilleure carte restante risquait l'assassin ({assassin})",
        "go_on": "j'ai continué : elle semblait encore verte",
        "wrong": "le tour s'est fini sur une mauvaise carte",
        "table": "(un mot qu'on associe à {cards})",
    },
    "ro": {
        "gave": "Am spus {word} {number}: mă gândeam la {meant}",
        "gave_fallback": "Am spus {word} {number}: mă gândeam la {meant} (niciun indiciu sigur: cel mai puțin riscant)",
        "received": "Ai spus {word} {number}: am cântărit {considered}; am atins {guessed}; {reason}",
        "received_sd": "Moarte subită: am cântărit {considered}; am atins {guessed}; {reason}",
        "considered": "{word} ({green} verde, {assassin} asasin)",
        "nothing": "nimic",
        "sep": "; ",
        "and": ", ",
        "sd": "în moartea subită nu mai vine niciun indiciu, așa că am ales verdele cel mai probabil",
        "first": "trebuie cel puțin o încercare",
        "low_green": "m-am oprit: cea mai bună carte rămasă avea doar {green} șanse să fie verde",
        "risk": "m-am oprit: cea mai bună carte rămasă risca asasinul ({assassin})",
        "go_on": "am continuat: încă părea verde",
        "wrong": "tura s-a încheiat pe o carte greșită",
        "table": "(un cuvânt pe care oamenii îl leagă de {cards})",
    },
    "de": {
        "gave": "Ich habe {word} {number} gesagt: Ich meinte {meant}",
        "gave_fallback": (
            "Ich habe {word} {number} gesagt: Ich meinte {meant}"
            " (kein sicherer Hinweis mehr: der am wenigsten riskante)"
        ),
        "received": (
            "Du hast {word} {number} gesagt: Ich habe {considered} abgewogen; ich habe {guessed} berührt; {reason}"
        ),
        "received_sd": "Nachspielzeit: Ich habe {considered} abgewogen; ich habe {guessed} berührt; {reason}",
        "considered": "{word} ({green} grün, {assassin} Attentäter)",
        "nothing": "nichts",
        "sep": "; ",
        "and": ", ",
        "sd": "in der Nachspielzeit kommt kein Hinweis, also habe ich die wahrscheinlichste grüne Karte genommen",
        "first": "mindestens ein Tipp ist Pflicht",
        "low_green": "ich habe aufgehört: Die beste übrige Karte war nur zu {green} grün",
        "risk": "ich habe aufgehört: Die beste übrige Karte hätte der Attentäter sein können ({assassin})",
        "go_on": "ich habe weitergemacht: Sie sah noch grün aus",
        "wrong": "der Zug endete auf einer falschen Karte",
        "table": "(ein Wort, das man mit {cards} verbindet)",
    },
    "it": {
        "gave": "Ho detto {word} {number}: pensavo a {meant}",
        "gave_fallback": "Ho detto {word} {number}: pensavo a {meant} (nessun indizio sicuro: il meno rischioso)",
        "received": "Hai detto {word} {number}: ho valutato {considered}; ho toccato {guessed}; {reason}",
        "received_sd": "Morte improvvisa: ho valutato {considered}; ho toccato {guessed}; {reason}",
        "considered": "{word} ({green} verde, {assassin} assassino)",
        "nothing": "niente",
        "sep": "; ",
        "and": ", ",
        "sd": "nella morte improvvisa non arriva nessun indizio, quindi ho scelto il verde più probabile",
        "first": "serve almeno un tentativo",
        "low_green": "mi sono fermata: la carta migliore rimasta aveva solo il {green} di probabilità di essere verde",
        "risk": "mi sono fermata: la carta migliore rimasta rischiava l'assassino ({assassin})",
        "go_on": "ho continuato: sembrava ancora verde",
        "wrong": "il turno è finito su una carta sbagliata",
        "table": "(una parola che si associa a {cards})",
    },
}

def percent(value: float, language: str) -> str:
    """``value`` (0..1) as a whole percentage the way the language writes it, from CLDR through Babel: "59 %"
    with a no-break space in French, Romanian and German, "59%" in English and Italian."""
    return str(format_percent(value, locale=language if language in MESSAGES else "en"))


def say(language: str, key: str, **fields: Any) -> str:
    table = MESSAGES.get(language, MESSAGES["en"])
    text = table.get(key) or MESSAGES["en"][key]
    return text.format(**fields)


def languages() -> list[str]:
    return list(MESSAGES)
