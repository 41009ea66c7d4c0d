import { recordValidated } from "./contract";

afterAll(() => recordValidated());
