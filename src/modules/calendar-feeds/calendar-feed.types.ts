import { Field, ID, ObjectType } from "type-graphql";

@ObjectType({ simpleResolvers: true, description: "A calendar feed's secret URL, shown once: calendar programs subscribe to it; only its hash is kept" })
export class CalendarFeedLink {
  @Field(() => ID)
  id: string;

  @Field({ description: "The feed's URL with its secret (an iCalendar file); asking again replaces it" })
  url: string;
}
