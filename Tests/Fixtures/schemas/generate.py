"""Writes the JSON Schemas Pydantic 2 generates for ordinary models, one file per model, into this
directory (Tests/Fixtures/schemas/pydantic-*.json). The Swift tests read the committed files; run
`python3 Tests/Fixtures/schemas/generate.py` to regenerate them (needs pydantic 2)."""
import datetime
import enum
import json
import pathlib
import uuid
from typing import Annotated, Dict, List, Literal, Optional, Tuple, Union

from pydantic import BaseModel, Field, conint, constr, confloat


class Color(str, enum.Enum):
    red = "red"
    green = "green"
    blue = "blue"


class Priority(int, enum.Enum):
    low = 1
    medium = 2
    high = 3


class Address(BaseModel):
    street: str
    city: str
    postcode: constr(pattern=r"^[0-9]{5}$")


class Person(BaseModel):
    name: str
    age: conint(ge=0, le=150)
    address: Address


class Team(BaseModel):
    name: str
    members: List[Person] = Field(max_length=3)


class TreeNode(BaseModel):
    value: int
    children: List["TreeNode"] = Field(default_factory=list, max_length=2)


class LinkedList(BaseModel):
    value: str = Field(max_length=8)
    next: Optional["LinkedList"] = None


class Product(BaseModel):
    name: str
    color: Color
    price: confloat(gt=0, lt=10000)


class Flag(BaseModel):
    kind: Literal["flag"]
    enabled: bool


class Counts(BaseModel):
    counts: Dict[str, int]


class Event(BaseModel):
    title: str
    day: datetime.date
    starts: datetime.datetime


class Meeting(BaseModel):
    at: datetime.time
    room: Optional[str] = None


class User(BaseModel):
    id: uuid.UUID
    email: str = Field(json_schema_extra={"format": "email"})
    username: constr(min_length=3, max_length=12, pattern=r"^[a-z][a-z0-9_]*$")


class Measurement(BaseModel):
    value: confloat(ge=-40, le=60)
    unit: Literal["C", "F"]
    count: conint(multiple_of=5, ge=0, le=100)


class Task(BaseModel):
    title: str
    priority: Priority
    done: bool = False
    tags: List[str] = Field(default_factory=list, max_length=4)


class Point(BaseModel):
    x: float
    y: float


class Polygon(BaseModel):
    points: List[Point] = Field(min_length=3, max_length=5)


class Pair(BaseModel):
    pair: Tuple[int, str]


class Cat(BaseModel):
    pet_type: Literal["cat"]
    meows: int


class Dog(BaseModel):
    pet_type: Literal["dog"]
    barks: float


class Owner(BaseModel):
    pet: Union[Cat, Dog] = Field(discriminator="pet_type")


class MaybeNumber(BaseModel):
    value: Union[int, str, None]


class Settings(BaseModel):
    theme: Literal["light", "dark"] = "light"
    font_size: conint(ge=8, le=32) = 12
    extras: Dict[str, bool] = Field(default_factory=dict)


class Invoice(BaseModel):
    number: constr(pattern=r"^INV-[0-9]{4}$")
    amount: confloat(ge=0)
    currency: Literal["EUR", "USD", "GBP"]
    due: datetime.date


class Server(BaseModel):
    host: str = Field(json_schema_extra={"format": "ipv4"})
    port: conint(gt=0, lt=65536)
    url: str = Field(json_schema_extra={"format": "uri"})


class V6Host(BaseModel):
    address: str = Field(json_schema_extra={"format": "ipv6"})


class Comment(BaseModel):
    text: constr(min_length=1, max_length=40)
    replies: List["Comment"] = Field(default_factory=list, max_length=2)


class Category(BaseModel):
    name: str
    parent: Optional["Category"] = None


class Inventory(BaseModel):
    items: Dict[str, Product] = Field(max_length=3)


class Review(BaseModel):
    stars: conint(ge=1, le=5)
    text: Optional[constr(max_length=100)] = None
    sentiment: Literal["positive", "negative", "neutral"]


class Company(BaseModel):
    name: str
    ceo: Person
    employees: List[Person] = Field(max_length=2)
    headquarters: Address


class Matrix(BaseModel):
    rows: List[List[int]] = Field(max_length=3)


class Profile(BaseModel):
    nickname: Optional[str] = None
    birthday: Optional[datetime.date] = None
    score: Optional[confloat(ge=0, le=1)] = None


class Recipe(BaseModel):
    title: str
    servings: conint(ge=1, le=12)
    ingredients: List[str] = Field(min_length=1, max_length=5)
    difficulty: Literal["easy", "medium", "hard"]


class Weekday(str, enum.Enum):
    monday = "monday"
    tuesday = "tuesday"
    wednesday = "wednesday"


class Schedule(BaseModel):
    days: List[Weekday] = Field(max_length=3)
    note: Optional[str] = Field(default=None, max_length=20)


class Coordinates(BaseModel):
    lat: confloat(ge=-90, le=90)
    lon: confloat(ge=-180, le=180)


class Place(BaseModel):
    name: str
    location: Coordinates
    kind: Literal["city", "village"]


MODELS = [Address, Person, Team, TreeNode, LinkedList, Product, Flag, Counts, Event, Meeting, User, Measurement, Task,
          Polygon, Pair, Owner, MaybeNumber, Settings, Invoice, Server, V6Host, Comment, Category, Inventory, Review,
          Company, Matrix, Profile, Recipe, Schedule, Place]

if __name__ == "__main__":
    here = pathlib.Path(__file__).parent
    for model in MODELS:
        schema = model.model_json_schema()
        (here / f"pydantic-{model.__name__}.json").write_text(json.dumps(schema, indent=1) + "\n")
    print(f"{len(MODELS)} schemas written")
