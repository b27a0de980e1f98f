"""Build the Codenames Pictures deck in engine/data/pictures/ from the Twemoji graphics.

The pictures come from the npm package ``@iconify-json/twemoji`` (Twemoji artwork as SVG bodies, CC BY 4.0);
the licence text comes from the npm package ``twemoji`` (its LICENSE-GRAPHICS file). Both are fetched with
``npm pack`` into a temporary folder unless ``--iconify DIR`` / ``--twemoji DIR`` point at extracted packages.
Each chosen picture is rasterised with cairosvg (needs libcairo2) into a 128x128 RGBA PNG with a 4 px
transparent margin, written as ``pNNN-<slug>.png``. The ids are the numbers of PICTURES below: append new
pictures at the end and never reorder or reuse a number, so that saved game records keep meaning the same
pictures.

Usage: .venv/bin/python tools/build_picture_deck.py [--iconify DIR] [--twemoji DIR] [--out DIR] [--sheet PNG]
Not run by the tests; `duetbox pictures check` checks the result.
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ICONIFY_PACKAGE = "@iconify-json/twemoji@1.2.5"
TWEMOJI_PACKAGE = "twemoji@14.0.2"
SIZE = 128
MARGIN = 4
ROOT = Path(__file__).resolve().parent.parent

# (Twemoji name in the Iconify set, short English label). The position + 1 is the picture number: append only.
PICTURES: tuple[tuple[str, str], ...] = (
    # animals
    ("ant", "ant"), ("bat", "bat"), ("bear", "bear"), ("honeybee", "bee"), ("butterfly", "butterfly"),
    ("camel", "camel"), ("cat", "cat"), ("cow", "cow"), ("crab", "crab"), ("crocodile", "crocodile"),
    ("deer", "deer"), ("dog", "dog"), ("dolphin", "dolphin"), ("dragon", "dragon"), ("duck", "duck"),
    ("eagle", "eagle"), ("elephant", "elephant"), ("flamingo", "flamingo"), ("fox", "fox"),
    ("frog", "frog"), ("giraffe", "giraffe"), ("gorilla", "gorilla"), ("hedgehog", "hedgehog"),
    ("horse", "horse"), ("kangaroo", "kangaroo"), ("koala", "koala"), ("lion", "lion"),
    ("lobster", "lobster"), ("mouse", "mouse"), ("octopus", "octopus"), ("owl", "owl"), ("panda", "panda"),
    ("parrot", "parrot"), ("peacock", "peacock"), ("penguin", "penguin"), ("pig", "pig"),
    ("rabbit", "rabbit"), ("rhinoceros", "rhinoceros"), ("shark", "shark"), ("ewe", "sheep"),
    ("snail", "snail"), ("snake", "snake"), ("spider", "spider"), ("swan", "swan"), ("t-rex", "dinosaur"),
    ("tiger", "tiger"), ("turtle", "turtle"), ("unicorn", "unicorn"), ("spouting-whale", "whale"),
    ("zebra", "zebra"), ("scorpion", "scorpion"), ("rooster", "rooster"), ("bison", "bison"),
    ("sloth", "sloth"), ("jellyfish", "jellyfish"),
    # plants and nature
    ("cactus", "cactus"), ("four-leaf-clover", "clover"), ("mushroom", "mushroom"),
    ("palm-tree", "palm tree"), ("rose", "rose"), ("sunflower", "sunflower"),
    ("evergreen-tree", "fir tree"), ("maple-leaf", "maple leaf"), ("feather", "feather"),
    ("spider-web", "spider web"), ("spiral-shell", "shell"), ("nest-with-eggs", "nest"),
    ("paw-prints", "paw prints"), ("seedling", "seedling"), ("coral", "coral"),
    # food and drink
    ("avocado", "avocado"), ("banana", "banana"), ("baguette-bread", "baguette"), ("broccoli", "broccoli"),
    ("birthday-cake", "cake"), ("carrot", "carrot"), ("cheese-wedge", "cheese"), ("cherries", "cherries"),
    ("chocolate-bar", "chocolate"), ("coconut", "coconut"), ("cookie", "cookie"), ("ear-of-corn", "corn"),
    ("croissant", "croissant"), ("doughnut", "doughnut"), ("egg", "egg"), ("eggplant", "eggplant"),
    ("french-fries", "fries"), ("grapes", "grapes"), ("hamburger", "hamburger"), ("hot-dog", "hot dog"),
    ("hot-pepper", "chili pepper"), ("soft-ice-cream", "ice cream"), ("lemon", "lemon"),
    ("lollipop", "lollipop"), ("pineapple", "pineapple"), ("pizza", "pizza"), ("popcorn", "popcorn"),
    ("pretzel", "pretzel"), ("red-apple", "apple"), ("strawberry", "strawberry"), ("sushi", "sushi"),
    ("taco", "taco"), ("watermelon", "watermelon"), ("peanuts", "peanuts"), ("pancakes", "pancakes"),
    ("honey-pot", "honey"), ("garlic", "garlic"), ("baby-bottle", "baby bottle"),
    ("wine-glass", "wine glass"), ("teapot", "teapot"), ("beer-mug", "beer"),
    ("cocktail-glass", "cocktail"), ("candy", "candy"), ("kitchen-knife", "knife"),
    # objects
    ("anchor", "anchor"), ("axe", "axe"), ("backpack", "backpack"), ("balloon", "balloon"),
    ("basket", "basket"), ("bathtub", "bathtub"), ("battery", "battery"), ("bed", "bed"), ("bell", "bell"),
    ("bomb", "bomb"), ("books", "books"), ("boomerang", "boomerang"), ("bow-and-arrow", "bow and arrow"),
    ("broom", "broom"), ("bucket", "bucket"), ("camera", "camera"), ("candle", "candle"),
    ("chair", "chair"), ("coin", "coin"), ("coffin", "coffin"), ("compass", "compass"), ("crown", "crown"),
    ("crystal-ball", "crystal ball"), ("crossed-swords", "swords"), ("door", "door"), ("drum", "drum"),
    ("envelope", "envelope"), ("fire-extinguisher", "fire extinguisher"), ("flashlight", "flashlight"),
    ("gem-stone", "diamond"), ("glasses", "glasses"), ("gloves", "gloves"), ("guitar", "guitar"),
    ("hammer", "hammer"), ("headphone", "headphones"), ("hook", "hook"), ("old-key", "key"),
    ("ladder", "ladder"), ("laptop", "laptop"), ("light-bulb", "light bulb"), ("lipstick", "lipstick"),
    ("magnet", "magnet"), ("magnifying-glass-tilted-left", "magnifying glass"), ("megaphone", "megaphone"),
    ("microphone", "microphone"), ("microscope", "microscope"), ("mirror", "mirror"),
    ("money-bag", "money bag"), ("moai", "stone head"), ("necktie", "tie"), ("newspaper", "newspaper"),
    ("artist-palette", "palette"), ("paperclip", "paperclip"), ("pencil", "pencil"), ("pill", "pill"),
    ("pushpin", "pushpin"), ("radio", "radio"), ("ring", "ring"), ("safety-pin", "safety pin"),
    ("saxophone", "saxophone"), ("scissors", "scissors"), ("scroll", "scroll"), ("shield", "shield"),
    ("shopping-cart", "shopping cart"), ("shower", "shower"), ("soap", "soap"), ("sponge", "sponge"),
    ("stethoscope", "stethoscope"), ("syringe", "syringe"), ("telephone", "telephone"),
    ("telescope", "telescope"), ("television", "television"), ("test-tube", "test tube"),
    ("toilet", "toilet"), ("toolbox", "toolbox"), ("toothbrush", "toothbrush"), ("top-hat", "top hat"),
    ("treasure-chest", "treasure chest"), ("trumpet", "trumpet"), ("umbrella", "umbrella"),
    ("violin", "violin"), ("watch", "watch"), ("window", "window"), ("wrench", "wrench"), ("dna", "DNA"),
    ("chains", "chains"), ("locked", "padlock"), ("graduation-cap", "graduation cap"),
    ("hourglass-done", "hourglass"), ("alarm-clock", "alarm clock"), ("high-heeled-shoe", "high heel"),
    ("running-shoe", "sneaker"), ("t-shirt", "T-shirt"), ("dress", "dress"), ("jeans", "jeans"),
    ("kimono", "kimono"), ("bikini", "bikini"), ("billed-cap", "cap"), ("scarf", "scarf"),
    ("socks", "socks"), ("briefcase", "briefcase"), ("lotion-bottle", "bottle"), ("plunger", "plunger"),
    ("screwdriver", "screwdriver"), ("shovel", "shovel"), ("carpentry-saw", "saw"),
    ("accordion", "accordion"), ("banjo", "banjo"), ("harp", "harp"), ("video-camera", "video camera"),
    ("printer", "printer"), ("mouse-trap", "mouse trap"), ("teddy-bear", "teddy bear"),
    ("wrapped-gift", "gift"),
    # places, transport, sky and weather
    ("airplane", "airplane"), ("ambulance", "ambulance"), ("automobile", "car"), ("bicycle", "bicycle"),
    ("bus", "bus"), ("canoe", "canoe"), ("castle", "castle"), ("circus-tent", "circus"),
    ("ferris-wheel", "ferris wheel"), ("fire-engine", "fire engine"), ("fountain", "fountain"),
    ("helicopter", "helicopter"), ("house", "house"), ("locomotive", "steam train"),
    ("motorcycle", "motorcycle"), ("snow-capped-mountain", "mountain"), ("parachute", "parachute"),
    ("racing-car", "racing car"), ("rainbow", "rainbow"), ("rocket", "rocket"),
    ("roller-coaster", "roller coaster"), ("sailboat", "sailboat"), ("satellite", "satellite"),
    ("passenger-ship", "ship"), ("skateboard", "skateboard"), ("statue-of-liberty", "statue"),
    ("tent", "tent"), ("tractor", "tractor"), ("tornado", "tornado"), ("volcano", "volcano"),
    ("desert-island", "island"), ("crescent-moon", "moon"), ("sun", "sun"), ("star", "star"),
    ("cloud-with-lightning", "lightning"), ("snowman", "snowman"), ("snowflake", "snowflake"),
    ("fire", "fire"), ("droplet", "drop"), ("ringed-planet", "planet"), ("comet", "comet"),
    ("globe-showing-europe-africa", "globe"), ("world-map", "world map"), ("stadium", "stadium"),
    ("classical-building", "temple"), ("hut", "hut"), ("thermometer", "thermometer"),
    ("vertical-traffic-light", "traffic light"), ("fuel-pump", "fuel pump"),
    ("flying-saucer", "flying saucer"), ("wheel", "wheel"), ("brick", "bricks"), ("rock", "rock"),
    ("wood", "wood"), ("luggage", "suitcase"), ("kick-scooter", "scooter"),
    ("roller-skate", "roller skate"), ("factory", "factory"), ("bridge-at-night", "bridge"),
    # games, sport and celebrations
    ("soccer-ball", "football"), ("basketball", "basketball"), ("tennis", "tennis"), ("bowling", "bowling"),
    ("boxing-glove", "boxing glove"), ("bullseye", "target"), ("chess-pawn", "chess pawn"),
    ("christmas-tree", "Christmas tree"), ("game-die", "die"), ("fishing-pole", "fishing rod"),
    ("kite", "kite"), ("magic-wand", "magic wand"), ("trophy", "trophy"), ("admission-tickets", "ticket"),
    ("video-game", "game controller"), ("yo-yo", "yo-yo"), ("puzzle-piece", "puzzle piece"),
    ("jack-o-lantern", "pumpkin"), ("fireworks", "fireworks"), ("ice-skate", "ice skate"), ("skis", "skis"),
    ("sled", "sled"), ("diving-mask", "diving mask"), ("pool-8-ball", "billiard ball"),
    ("slot-machine", "slot machine"), ("joker", "joker card"), ("party-popper", "party popper"),
    ("goal-net", "goal"), ("ping-pong", "ping pong"), ("nesting-dolls", "nesting dolls"),
    ("pinata", "piñata"), ("yarn", "yarn"), ("sewing-needle", "needle"),
    ("performing-arts", "theatre masks"), ("framed-picture", "painting"), ("mirror-ball", "disco ball"),
    ("knot", "knot"), ("sports-medal", "medal"),
    # figures and body
    ("ghost", "ghost"), ("skull", "skull"), ("robot", "robot"), ("alien", "alien"),
    ("astronaut", "astronaut"), ("ninja", "ninja"), ("vampire", "vampire"), ("mermaid", "mermaid"),
    ("genie", "genie"), ("mage", "wizard"), ("zombie", "zombie"), ("superhero", "superhero"),
    ("santa-claus", "Santa Claus"), ("princess", "princess"), ("detective", "detective"),
    ("firefighter", "firefighter"), ("cook", "cook"), ("farmer", "farmer"), ("pilot", "pilot"),
    ("fairy", "fairy"), ("troll", "troll"), ("baby", "baby"), ("brain", "brain"),
    ("anatomical-heart", "heart"), ("bone", "bone"), ("tooth", "tooth"), ("eye", "eye"), ("ear", "ear"),
    ("nose", "nose"), ("foot", "foot"), ("footprints", "footprints"), ("lungs", "lungs"),
    ("flexed-biceps", "muscle"), ("love-letter", "love letter"),
)


def slug(label: str) -> str:
    out = "".join(c if c.isalnum() else "-" for c in label.lower().replace("ñ", "n"))
    return "-".join(part for part in out.split("-") if part)


def npm_unpack(spec: str, dest: Path) -> Path:
    """`npm pack` one package into dest and return the folder it unpacks to."""
    dest.mkdir(parents=True, exist_ok=True)
    command = ["npm", "pack", spec, "--silent"]
    out = subprocess.run(command, cwd=dest, check=True, capture_output=True, text=True)
    tgz = dest / out.stdout.strip().splitlines()[-1]
    target = dest / "unpacked"
    with tarfile.open(tgz) as tar:
        tar.extractall(target, filter="data")
    return target / "package"


def svg_of(icons: dict[str, object], name: str) -> bytes:
    data = icons["icons"]
    assert isinstance(data, dict)
    icon = data[name]
    width = icon.get("width", icons.get("width", 16))
    height = icon.get("height", icons.get("height", 16))
    left, top = icon.get("left", 0), icon.get("top", 0)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{left} {top} {width} {height}">'
        f"{icon['body']}</svg>"
    ).encode()


def render(svg: bytes) -> bytes:
    import cairosvg
    from PIL import Image

    inner = SIZE - 2 * MARGIN
    png = cairosvg.svg2png(bytestring=svg, output_width=inner, output_height=inner)
    image = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    picture = Image.open(io.BytesIO(png)).convert("RGBA")
    image.paste(picture, ((SIZE - picture.width) // 2, (SIZE - picture.height) // 2))
    # Fully transparent pixels carry no colour; zeroing them lets zlib compress better.
    seen = image.getchannel("A").point(lambda a: 255 if a else 0)
    image = Image.composite(image, Image.new("RGBA", image.size, (0, 0, 0, 0)), seen)
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def contact_sheet(out: Path, entries: list[dict[str, str]], sheet: Path) -> None:
    from PIL import Image, ImageDraw

    cols, cell, text_h = 16, 136, 14
    rows = (len(entries) + cols - 1) // cols
    image = Image.new("RGB", (cols * cell, rows * (cell + text_h)), (40, 44, 52))
    draw = ImageDraw.Draw(image)
    for i, entry in enumerate(entries):
        x, y = (i % cols) * cell, (i // cols) * (cell + text_h)
        # A light tile like a printed card, so that dark pictures (ant, ninja) are judged fairly.
        draw.rectangle((x + 2, y + 2, x + cell - 3, y + cell - 3), fill=(200, 203, 208))
        picture = Image.open(out / entry["file"]).convert("RGBA")
        image.paste(picture, (x + 4, y + 4), picture)
        draw.text((x + 4, y + cell - 4), f"{entry['id']} {entry['label']}"[:22], fill=(230, 230, 230))
    sheet.parent.mkdir(parents=True, exist_ok=True)
    image.save(sheet, optimize=True)


def attribution(version: str, info: dict[str, object], count: int) -> str:
    author = info.get("author")
    project = author.get("url", "") if isinstance(author, dict) else ""
    project_name = project.rstrip("/").split("/", 3)[-1] if project else "jdecked/twemoji"
    inner = SIZE - 2 * MARGIN
    return f"""# Picture deck: attribution

The {count} pictures in this folder (`pNNN-*.png`) are Twemoji graphics.

- **Work**: Twemoji, the emoji artwork first published by Twitter and now maintained as the
  `{project_name}` project.
- **Creator and copyright**: Copyright 2019 Twitter, Inc and other contributors.
- **Licence**: Creative Commons Attribution 4.0 International (CC BY 4.0),
  https://creativecommons.org/licenses/by/4.0/ ; the full licence text is in `LICENSE` beside this file.
- **Where we took them from**: the npm package `@iconify-json/twemoji` version {version} (the Twemoji
  SVG artwork in Iconify JSON form, licence CC-BY-4.0); the licence text from the npm package
  `{TWEMOJI_PACKAGE}` (its `LICENSE-GRAPHICS` file).
- **Changes made by duetbox**: each chosen SVG was rasterised to a {inner}x{inner} bitmap and centred on a
  transparent {SIZE}x{SIZE} RGBA PNG (a {MARGIN} px margin); nothing else was altered. `deck.json` lists,
  for every picture, its Twemoji name and code point.

The pictures are offered under the same CC BY 4.0 terms, with no warranty. They are not endorsed by
Twitter, Inc or the Twemoji contributors. The rest of duetbox is under its own licence; the licence above
covers only these pictures. `tools/build_picture_deck.py` rebuilds this folder from the packages named
above.
"""


def build(iconify: Path, twemoji: Path, out: Path, sheet: Path | None) -> int:
    icons = json.loads((iconify / "icons.json").read_text(encoding="utf-8"))
    chars = json.loads((iconify / "chars.json").read_text(encoding="utf-8"))
    info = json.loads((iconify / "info.json").read_text(encoding="utf-8"))
    version = json.loads((iconify / "package.json").read_text(encoding="utf-8"))["version"]
    codepoints: dict[str, str] = {}
    for code, name in chars.items():
        codepoints.setdefault(name, code)
    missing = [name for name, _ in PICTURES if name not in icons["icons"]]
    if missing:
        print(f"build_picture_deck: not in the icon set: {', '.join(missing)}", file=sys.stderr)
        return 1
    names = [name for name, _ in PICTURES]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        print(f"build_picture_deck: listed twice: {', '.join(dupes)}", file=sys.stderr)
        return 1

    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("p*.png"):
        old.unlink()
    entries: list[dict[str, str]] = []
    for number, (name, label) in enumerate(PICTURES, start=1):
        pid = f"p{number:03d}"
        file = f"{pid}-{slug(label)}.png"
        (out / file).write_bytes(render(svg_of(icons, name)))
        entries.append({
            "id": pid, "label": label, "file": file, "source_name": name,
            "codepoint": "U+" + codepoints[name].upper().replace("-", " U+") if name in codepoints else "",
        })
    deck = {
        "source": {
            "set": "Twemoji",
            "package": f"@iconify-json/twemoji@{version}",
            "licence": info["license"]["spdx"],
            "size": SIZE,
        },
        "pictures": entries,
    }
    (out / "deck.json").write_text(json.dumps(deck, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    shutil.copyfile(twemoji / "LICENSE-GRAPHICS", out / "LICENSE")
    (out / "ATTRIBUTION.md").write_text(attribution(version, info, len(entries)), encoding="utf-8")
    if sheet is not None:
        contact_sheet(out, entries, sheet)
    print(f"{len(entries)} pictures written to {out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iconify", type=Path, help=f"extracted {ICONIFY_PACKAGE} (default: npm pack it)")
    parser.add_argument("--twemoji", type=Path, help=f"extracted {TWEMOJI_PACKAGE} (default: npm pack it)")
    parser.add_argument("--out", type=Path, default=ROOT / "engine" / "data" / "pictures")
    parser.add_argument("--sheet", type=Path, default=ROOT / "docs" / "img" / "picture-deck.png")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        iconify = args.iconify or npm_unpack(ICONIFY_PACKAGE, Path(tmp) / "iconify")
        twemoji = args.twemoji or npm_unpack(TWEMOJI_PACKAGE, Path(tmp) / "twemoji")
        return build(iconify, twemoji, args.out, args.sheet)


if __name__ == "__main__":
    sys.exit(main())
