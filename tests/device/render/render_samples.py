"""Sample UI models and views for every shared-display screen (smoke tests and sample images)."""

from __future__ import annotations

import render_scenes as scenes

from device.render.models import (
    AttractUi,
    ClassicCard,
    ClassicPlayUi,
    Cursor,
    GameOverUi,
    Hold,
    HotSeatUi,
    MapCity,
    MapUi,
    MenuItem,
    MenuUi,
    MessageUi,
    PinUi,
    PlayUi,
    SettingsUi,
    SetupUi,
    StatsRow,
    StatsUi,
)
from engine import duet
from engine.views import public_view, revealed_keys

LABELS = {
    "clues": "Indices",
    "bank": "Sablier",
    "taken": "Utilisés",
    "agents": "Agents",
    "mission": "Mission",
    "stop": "STOP",
    "no_word": "(oral)",
    "R": "Rouges",
    "B": "Bleus",
    "ticked": "réussie",
    "playable": "jouable",
    "locked": "fermée",
}


def play_mid() -> tuple[object, PlayUi]:
    v = public_view(scenes.mid_game())
    return v, PlayUi(
        cursors=(Cursor("A", 12), Cursor("B", 7)),
        hold=Hold("B", 7, 0.55),
        message="B devine : royaume 3 — maintenez OK sur une carte",
        labels=LABELS,
    )


def play_upright() -> tuple[object, PlayUi]:
    v = public_view(scenes.mid_game())
    return v, PlayUi(
        cursors=(Cursor("A", 12), Cursor("B", 12)),
        message="B devine : royaume 3",
        orientation="upright",
        labels=LABELS,
    )


def play_sudden() -> tuple[object, PlayUi]:
    v = public_view(scenes.sudden_death())
    return v, PlayUi(
        cursors=(Cursor("A", 3),),
        message="Chacun peut deviner ; une erreur et c'est perdu",
        banner="Mort subite",
        labels=LABELS,
    )


def play_double() -> tuple[object, PlayUi]:
    v = public_view(scenes.double_mark())
    return v, PlayUi(message="A ou B donne un indice", hold=Hold("B", None, 0.4, "stop"), labels=LABELS)


def over_won() -> tuple[object, GameOverUi]:
    s = scenes.won()
    return public_view(s), GameOverUi(
        title="Gagné !",
        reason="Les 15 agents sont trouvés.",
        score_line="Score : 21",
        verdict="Incroyable ! Essayez la carte des missions.",
        summary=("2 indices, 0 erreur",),
        prompt="Appuyez tous deux sur OK",
        confirmed=("A",),
        won=True,
        labels=LABELS,
    )


def over_lost_keys() -> tuple[object, GameOverUi]:
    s = scenes.assassin_loss()
    return public_view(s), GameOverUi(
        title="Perdu",
        reason="B a touché l'assassin.",
        keys=revealed_keys(s),
        confirmed=("A", "B"),
        labels=LABELS,
    )


def menu() -> tuple[None, MenuUi]:
    items = tuple(
        MenuItem(x)
        for x in (
            "Duo",
            "Carte des missions",
            "Classique",
            "Images",
            "Duo en images",
            "Chacun son tour",
            "Statistiques",
            "Réglages",
        )
    )
    return None, MenuUi(title="duetbox", items=items, selected=1, hint="joystick : choisir · OK : valider")


def setup() -> tuple[None, SetupUi]:
    rows = (
        MenuItem("Jetons", value="9"),
        MenuItem("Mots", value="Français"),
        MenuItem("Indices", value="stricts"),
        MenuItem("Plusieurs indices de suite", value="non"),
        MenuItem("Commencer"),
    )
    return None, SetupUi(
        title="Nouvelle partie", rows=rows, selected=0, editing=True, hint="← → : changer · OK : valider"
    )


def settings() -> tuple[None, SettingsUi]:
    rows = (
        MenuItem("Langue", value="Română"),
        MenuItem("Luminozitate", value="60 %"),
        MenuItem("Resetare statistici"),
        MenuItem("Oprire sigură"),
        MenuItem("Repornire", enabled=False),
    )
    return None, SettingsUi(title="Setări", rows=rows, selected=1, status="Statisticile au fost șterse")


def pin() -> tuple[None, PinUi]:
    return None, PinUi(
        title="Code PIN", length=4, entered=2, current=7, error="Code incorrect", hint="OK : chiffre"
    )


def stats() -> tuple[None, StatsUi]:
    rows = (
        StatsRow("Duo", ("12", "7", "21", "3")),
        StatsRow("Missions", ("5", "2", "—", "1")),
        StatsRow("Classique", ("4", "2", "—", "2")),
        StatsRow("Images", ("1", "0", "—", "0")),
    )
    return None, StatsUi(
        title="Statistiques",
        columns=("parties", "victoires", "meilleur score", "série"),
        rows=rows,
        lines=("Meilleure série : 4 victoires",),
    )


def mission_map() -> tuple[None, MapUi]:
    from engine.missions import default_map

    m = default_map()
    ticked = {"Prague", "Berlin", "Cairo"}
    near = {n for t in ticked for n in m.neighbours(t)} - ticked
    cities = tuple(
        MapCity(
            c.name,
            c.name,
            c.turns,
            c.mistakes,
            "ticked" if c.name in ticked else ("playable" if c.name in near else "locked"),
            wins=1 if c.name in ticked else 0,
            pos=(c.x, c.y),
        )
        for c in m.cities
    )
    links = tuple(tuple(sorted(link)) for link in m.links)
    return None, MapUi(
        title="Carte des missions",
        sheet="Les Renards",
        cities=cities,
        links=links,  # type: ignore
        selected="Moscow",
        detail=("8 tours, 8 erreurs", "0 victoire, 1 défaite"),
        hint="joystick : ville · OK : jouer",
        labels=LABELS,
    )


def privacy() -> tuple[None, HotSeatUi]:
    return None, HotSeatUi(
        stage="privacy",
        seat="A",
        lines=("Joueur B, détournez le regard", "Joueur A, maintenez OK pour voir votre clé"),
        hold=0.3,
    )


def hot_key() -> tuple[object, HotSeatUi]:
    s = scenes.mid_game()
    return public_view(s), HotSeatUi(
        stage="key",
        seat="A",
        key=s.key.a,
        lines=("Clé du joueur A", "Relâchez OK pour la cacher"),
        labels=LABELS,
    )


def attract() -> tuple[None, AttractUi]:
    return None, AttractUi(t=3.2, prompt="appuyez sur OK", words=scenes.WORDS)


def message() -> tuple[None, MessageUi]:
    return None, MessageUi(title="En pause", lines=("La partie est sauvegardée.",))


def classic() -> tuple[None, ClassicPlayUi]:
    words = scenes.WORDS
    colours = {0: "R", 4: "B", 9: "N", 13: "R", 20: "B"}
    cards = tuple(ClassicCard(w, colours.get(i)) for i, w in enumerate(words))  # type: ignore[arg-type]
    return None, ClassicPlayUi(
        team="Rouges",
        team_colour="R",
        clue="fleuve 2",
        guesses="3 essais restants",
        left={"R": "7", "B": "6"},
        message="Les Rouges devinent",
        cards=cards,
        cursors=(Cursor("B", 6),),
        cover=(17, 0.6),
        history=("Rouges : mer 2",),
        labels=LABELS,
    )


def pictures() -> tuple[None, ClassicPlayUi]:
    ids = tuple(f"p{n:03d}" for n in range(1, 21))
    colours = {2: "B", 5: "R", 11: "X"}
    cards = tuple(ClassicCard(p, colours.get(i)) for i, p in enumerate(ids))  # type: ignore[arg-type]
    return None, ClassicPlayUi(
        team="Bleus",
        team_colour="B",
        columns=5,
        rows=4,
        clue="ferme 3",
        guesses="4 essais",
        left={"R": "7", "B": "8"},
        message="Les Bleus devinent",
        cards=cards,
        pictures=True,
        cursors=(Cursor("B", 8),),
        labels=LABELS,
    )


def duet_pictures() -> tuple[object, PlayUi]:
    ids = tuple(f"p{n:03d}" for n in range(21, 46))
    s = duet.new_game(ids, scenes.key())
    return public_view(s), PlayUi(
        message="A ou B donne un indice", pictures=True, cursors=(Cursor("A", 0),), labels=LABELS
    )


ALL = {
    f.__name__: f
    for f in (
        play_mid,
        play_upright,
        play_sudden,
        play_double,
        over_won,
        over_lost_keys,
        menu,
        setup,
        settings,
        pin,
        stats,
        mission_map,
        privacy,
        hot_key,
        attract,
        message,
        classic,
        pictures,
        duet_pictures,
    )
}
