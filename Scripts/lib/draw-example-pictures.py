#!/usr/bin/env python3
"""Draws Examples/pictures/macbook.png and kong.png: flat drawings at the sizes an app's upload
has (a laptop for the market, 콩이 the dog for a story), small as PNGs because they are flat.
Run once by hand (needs Pillow: pip install pillow); the files are committed, closet never
needs Pillow."""
import os
from PIL import Image, ImageDraw

folder = os.path.join(os.path.dirname(__file__), "..", "..", "Examples", "pictures")


def laptop(path):
    width, height = 800, 520
    image = Image.new("RGB", (width, height), (242, 242, 245))
    draw = ImageDraw.Draw(image)
    # The lid and its screen.
    draw.rounded_rectangle((150, 40, 650, 370), radius=22, fill=(58, 60, 66))
    draw.rectangle((172, 62, 628, 348), fill=(40, 96, 170))
    for band, color in enumerate([(86, 150, 214), (120, 180, 230), (160, 206, 240)]):
        draw.polygon([(172, 348), (172, 250 - band * 40), (628, 170 + band * 50), (628, 348)], fill=color)
    draw.ellipse((394, 47, 406, 59), fill=(30, 30, 34))
    # The base, its keyboard well and trackpad.
    draw.polygon([(110, 380), (690, 380), (760, 450), (40, 450)], fill=(196, 198, 204))
    draw.rounded_rectangle((40, 450, 760, 468), radius=8, fill=(160, 162, 170))
    draw.polygon([(180, 390), (620, 390), (650, 420), (150, 420)], fill=(120, 122, 130))
    draw.rounded_rectangle((330, 425, 470, 446), radius=4, fill=(178, 180, 188))
    image.save(path, optimize=True)


def dog(path):
    width, height = 600, 600
    image = Image.new("RGB", (width, height), (250, 236, 210))
    draw = ImageDraw.Draw(image)
    draw.ellipse((60, 420, 540, 700), fill=(120, 176, 96))  # grass
    draw.ellipse((120, 300, 480, 600), fill=(196, 140, 84))  # body
    draw.ellipse((110, 70, 490, 420), fill=(214, 160, 100))  # head
    draw.ellipse((70, 90, 190, 330), fill=(140, 90, 50))  # ears
    draw.ellipse((410, 90, 530, 330), fill=(140, 90, 50))
    draw.ellipse((200, 250, 400, 400), fill=(245, 226, 196))  # muzzle
    draw.ellipse((205, 180, 245, 225), fill=(40, 30, 28))  # eyes
    draw.ellipse((355, 180, 395, 225), fill=(40, 30, 28))
    draw.ellipse((216, 188, 228, 200), fill=(255, 255, 255))
    draw.ellipse((366, 188, 378, 200), fill=(255, 255, 255))
    draw.ellipse((268, 262, 332, 310), fill=(50, 36, 34))  # nose
    draw.arc((250, 300, 300, 350), 20, 160, fill=(80, 50, 40), width=5)  # mouth
    draw.arc((300, 300, 350, 350), 20, 160, fill=(80, 50, 40), width=5)
    draw.ellipse((282, 338, 318, 380), fill=(230, 110, 120))  # tongue
    image.save(path, optimize=True)


laptop(os.path.join(folder, "macbook.png"))
dog(os.path.join(folder, "kong.png"))
