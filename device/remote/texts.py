"""What remote play shows, in each interface language (kept here so the shared catalogs stay untouched until the
screens settle; ``RemoteApp.tr`` looks here first for keys under ``remote.``)."""

from __future__ import annotations

from typing import Any

TEXTS: dict[str, dict[str, str]] = {
    "fr": {
        "remote.menu": "Duet à distance",
        "remote.title": "Duet à distance",
        "remote.host": "Créer une partie",
        "remote.join": "Rejoindre avec un code",
        "remote.resume": "Reprendre la partie à distance",
        "remote.code_title": "Code de la partie",
        "remote.code_line": "Donnez ce code à votre partenaire : {code}",
        "remote.enter_title": "Code de votre partenaire",
        "remote.enter_line": "Joystick : lettre · OK : suivante · STOP : effacer",
        "remote.waiting_host": "Recherche de la partie {code}…",
        "remote.waiting_partner": "En attente de votre partenaire…",
        "remote.partner_offline": "Partenaire hors ligne, partie en pause",
        "remote.offline": "Connexion perdue, partie en pause",
        "remote.paused_line": "Rien n'est perdu : la partie reprend dès le retour de la connexion.",
        "remote.back": "MENU : retour au menu (la partie reste enregistrée)",
        "remote.partner": "Partenaire à distance",
        "remote.partner_at": "Curseur sur la carte {card}",
        "remote.sending": "Envoi…",
        "remote.refused": "Coup refusé par l'autre boîte",
        "remote.not_yours": "Ce siège est joué sur l'autre boîte",
        "remote.clue": "Indice de votre partenaire : {clue}",
    },
    "en": {
        "remote.menu": "Remote Duet",
        "remote.title": "Remote Duet",
        "remote.host": "Host a game",
        "remote.join": "Join with a code",
        "remote.resume": "Resume the remote game",
        "remote.code_title": "Game code",
        "remote.code_line": "Give this code to your partner: {code}",
        "remote.enter_title": "Your partner's code",
        "remote.enter_line": "Joystick: letter · OK: next · STOP: delete",
        "remote.waiting_host": "Looking for game {code}…",
        "remote.waiting_partner": "Waiting for your partner…",
        "remote.partner_offline": "Partner offline, game paused",
        "remote.offline": "Connection lost, game paused",
        "remote.paused_line": "Nothing is lost: the game goes on as soon as the link is back.",
        "remote.back": "MENU: back to the menu (the game stays saved)",
        "remote.partner": "Remote partner",
        "remote.partner_at": "Cursor on card {card}",
        "remote.sending": "Sending…",
        "remote.refused": "The other box refused that move",
        "remote.not_yours": "That seat is played on the other box",
        "remote.clue": "Your partner's clue: {clue}",
    },
    "ro": {
        "remote.menu": "Duet la distanță",
        "remote.title": "Duet la distanță",
        "remote.host": "Creează un joc",
        "remote.join": "Intră cu un cod",
        "remote.resume": "Reia jocul la distanță",
        "remote.code_title": "Codul jocului",
        "remote.code_line": "Dă-i partenerului acest cod: {code}",
        "remote.enter_title": "Codul partenerului",
        "remote.enter_line": "Joystick: literă · OK: următoarea · STOP: șterge",
        "remote.waiting_host": "Se caută jocul {code}…",
        "remote.waiting_partner": "Se așteaptă partenerul…",
        "remote.partner_offline": "Partener deconectat, joc în pauză",
        "remote.offline": "Conexiune pierdută, joc în pauză",
        "remote.paused_line": "Nu se pierde nimic: jocul continuă imediat ce revine conexiunea.",
        "remote.back": "MENU: înapoi la meniu (jocul rămâne salvat)",
        "remote.partner": "Partener la distanță",
        "remote.partner_at": "Cursor pe cartea {card}",
        "remote.sending": "Se trimite…",
        "remote.refused": "Cealaltă cutie a refuzat mutarea",
        "remote.not_yours": "Acest loc se joacă pe cealaltă cutie",
        "remote.clue": "Indiciul partenerului: {clue}",
    },
    "de": {
        "remote.menu": "Duet aus der Ferne",
        "remote.title": "Duet aus der Ferne",
        "remote.host": "Spiel eröffnen",
        "remote.join": "Mit Code beitreten",
        "remote.resume": "Fernspiel fortsetzen",
        "remote.code_title": "Spielcode",
        "remote.code_line": "Gib deinem Partner diesen Code: {code}",
        "remote.enter_title": "Code deines Partners",
        "remote.enter_line": "Joystick: Buchstabe · OK: weiter · STOP: löschen",
        "remote.waiting_host": "Suche Spiel {code} …",
        "remote.waiting_partner": "Warte auf deinen Partner …",
        "remote.partner_offline": "Partner offline, Spiel pausiert",
        "remote.offline": "Verbindung verloren, Spiel pausiert",
        "remote.paused_line": "Nichts geht verloren: Das Spiel geht weiter, sobald die Verbindung zurück ist.",
        "remote.back": "MENU: zurück zum Menü (das Spiel bleibt gespeichert)",
        "remote.partner": "Partner in der Ferne",
        "remote.partner_at": "Cursor auf Karte {card}",
        "remote.sending": "Wird gesendet …",
        "remote.refused": "Die andere Box hat den Zug abgelehnt",
        "remote.not_yours": "Dieser Platz wird an der anderen Box gespielt",
        "remote.clue": "Hinweis deines Partners: {clue}",
    },
    "it": {
        "remote.menu": "Duet a distanza",
        "remote.title": "Duet a distanza",
        "remote.host": "Crea una partita",
        "remote.join": "Entra con un codice",
        "remote.resume": "Riprendi la partita a distanza",
        "remote.code_title": "Codice della partita",
        "remote.code_line": "Dai questo codice al tuo compagno: {code}",
        "remote.enter_title": "Codice del tuo compagno",
        "remote.enter_line": "Joystick: lettera · OK: avanti · STOP: cancella",
        "remote.waiting_host": "Ricerca della partita {code}…",
        "remote.waiting_partner": "In attesa del tuo compagno…",
        "remote.partner_offline": "Compagno offline, partita in pausa",
        "remote.offline": "Connessione persa, partita in pausa",
        "remote.paused_line": "Non si perde nulla: la partita riprende appena torna la connessione.",
        "remote.back": "MENU: torna al menu (la partita resta salvata)",
        "remote.partner": "Compagno a distanza",
        "remote.partner_at": "Cursore sulla carta {card}",
        "remote.sending": "Invio…",
        "remote.refused": "L'altra scatola ha rifiutato la mossa",
        "remote.not_yours": "Questo posto si gioca sull'altra scatola",
        "remote.clue": "Indizio del tuo compagno: {clue}",
    },
}


class RemoteTranslator:
    """The app's translator with the ``remote.`` keys added (falls back to English, then to the app's)."""

    def __init__(self, base: Any) -> None:
        self.base = base
        self.language = getattr(base, "language", "fr")

    def __call__(self, key: str, **fields: Any) -> str:
        if key.startswith("remote."):
            text = TEXTS.get(self.language, {}).get(key) or TEXTS["en"].get(key)
            if text is not None:
                return text.format(**fields) if fields else text
        return str(self.base(key, **fields))

    def has(self, key: str) -> bool:
        return key in TEXTS["en"] or bool(self.base.has(key))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.base, name)
